import Foundation
import HumanTokenAPI
import JourneyTesting
import SDKLiteSimulator
import Testing
import UnicoEmulator

/// A running emulator, the real Human Token client pointed at it (one per environment) and
/// phones pointed at it.
///
/// The emulator's clock starts at the real time and moves only when a test advances it; its
/// access log records every matched route, so tests can prove a check made no network call.
struct Unico: Sendable {
    static let tenant = "acme"

    let emulator: UnicoEmulator
    let baseURL: URL
    let clock: TestClock
    let requests: RequestLog
    private let uat: HumanTokenAPIClient
    private let prod: HumanTokenAPIClient

    fileprivate init(emulator: UnicoEmulator, clock: TestClock, requests: RequestLog) throws {
        self.emulator = emulator
        self.baseURL = try #require(emulator.baseURL)
        self.clock = clock
        self.requests = requests
        uat = try HumanTokenAPIClient(configuration: Self.configuration(.uat, baseURL))
        prod = try HumanTokenAPIClient(configuration: Self.configuration(.prod, baseURL))
    }

    /// The backend's part: Create Process in `environment`, for its `webAppToken` (and `token`).
    func createProcess(_ environment: EnvironmentEnum = .UAT) async throws -> CreatedProcess {
        try await client(environment).createProcess(
            CreateProcessRequest(
                flow: "idtoken", purpose: .biometryOnboarding,
                person: ProcessPerson(duiValue: "52998224725", friendlyName: "Maria"), clientReference: "journey-1"))
    }

    /// Get Process through the real client.
    func process(_ id: String, _ environment: EnvironmentEnum = .UAT) async throws -> UnicoProcessSnapshot {
        try await client(environment).getProcess(id)
    }

    /// A phone pointed at this emulator (or at `url`).
    func device(
        _ user: SimulatedUser = .approve, url: URL? = nil, isSimulator: Bool = false,
        network: SimulatedDevice.NetworkCondition = .online
    ) -> SimulatedDevice {
        SimulatedDevice(
            configuration: .init(emulatorURL: url ?? baseURL, isSimulator: isSimulator, network: network, requestTimeout: 5),
            user: user)
    }

    private func client(_ environment: EnvironmentEnum) -> HumanTokenAPIClient {
        environment == .UAT ? uat : prod
    }

    private static func configuration(_ environment: HumanTokenAPIEnvironment, _ baseURL: URL) -> HumanTokenAPIConfiguration {
        HumanTokenAPIConfiguration(
            environment: environment, serviceAccount: environment == .uat ? "journeys" : "journeys-prod",
            tenant: tenant, privateKey: .pem(TestKeys.accountPKCS8), tokenHost: baseURL, apiHost: baseURL,
            requestTimeout: 5)
    }
}

/// Starts an emulator with a UAT and a PROD account of tenant `acme`, runs `body`, shuts it down.
func withUnico(faults: FaultScript = .none, _ body: (Unico) async throws -> Void) async throws {
    let clock = TestClock(Date())
    let requests = RequestLog()
    let accounts: [UnicoEmulator.ServiceAccount] = [
        .init(tenantID: Unico.tenant, name: "journeys", environment: .uat, publicKey: TestKeys.account.publicKey),
        .init(tenantID: Unico.tenant, name: "journeys-prod", environment: .prod, publicKey: TestKeys.account.publicKey),
    ]
    let emulator = try UnicoEmulator(
        configuration: .init(
            port: 0, serviceAccounts: accounts, acceptsBaseURLAsAudience: true, rateLimitPerSecond: 0,
            faultScript: faults, clock: clock, accessLog: { requests.record($0.route) }))
    try emulator.start()
    do {
        try await body(try Unico(emulator: emulator, clock: clock, requests: requests))
    } catch {
        await emulator.shutdown()
        throw error
    }
    await emulator.shutdown()
}
