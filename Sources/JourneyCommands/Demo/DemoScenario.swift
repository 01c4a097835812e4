import SDKLiteSimulator

/// One simulated journey of the demo: what the phone and its user do.
struct DemoScenario: Sendable {
    enum Device: Sendable {
        /// The SDK Lite simulator runs the capture with this user.
        case capture(SimulatedUser, isSimulator: Bool = false, offline: Bool = false, token: TokenChoice = .webAppToken)
        /// An integration bug the SDK reports before any network call (73701, 74001): the app reports the code.
        case appReports(Int)
    }

    enum TokenChoice: Sendable {
        case webAppToken
        case empty
        case garbage
    }

    let label: String
    let environment: String
    let device: Device
    /// Run after the emulator's clock moved past the 5-minute token life.
    let afterExpiry: Bool
    /// After the first capture ends, the app asks for a token again (a new attempt with a fresh
    /// process) and this user captures; nil when the user does not come back.
    let comesBackAs: SimulatedUser?

    init(
        _ label: String, environment: String = "UAT", _ device: Device, afterExpiry: Bool = false,
        comesBackAs: SimulatedUser? = nil
    ) {
        self.label = label
        self.environment = environment
        self.device = device
        self.afterExpiry = afterExpiry
        self.comesBackAs = comesBackAs
    }

    /// Approvals, rejections, expiry, a drop-off the user recovers from and every SDK error code of the seed.
    static func all(approvals: Int) -> [DemoScenario] {
        var scenarios = (0..<approvals).map { _ in DemoScenario("approved", .capture(.approve)) }
        scenarios += (0..<max(1, approvals / 2)).map { _ in DemoScenario("rejected", .capture(.beRejected)) }
        scenarios += [
            DemoScenario("process expired", .capture(.expireToken)),
            DemoScenario("process error", .capture(.hitJourneyError)),
            DemoScenario("closed camera", .capture(.closeCamera)),
            DemoScenario(DemoRunner.closedCameraCameBack, .capture(.closeCamera), comesBackAs: .approve),
            DemoScenario("session timeout", .capture(.letSessionTimeOut)),
            DemoScenario("73203 empty token", .capture(.approve, token: .empty)),
            DemoScenario("73006 simulator", .capture(.approve, isSimulator: true)),
            DemoScenario("73302 offline", .capture(.approve, offline: true)),
            DemoScenario("73303 token entry off", environment: "PROD", .capture(.approve)),
            DemoScenario("73304 bad token", .capture(.approve, token: .garbage)),
            DemoScenario("73305 expired token", .capture(.approve), afterExpiry: true),
            DemoScenario("73701 Lite call", .appReports(73701)),
            DemoScenario("74001 no onSuccess", .appReports(74001)),
        ]
        return scenarios
    }
}
