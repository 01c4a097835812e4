import Foundation
import Synchronization
import SDKLiteSimulator
import Testing

/// The seed's integration sample, written against the simulator almost word for word.
@SDKMainActor
final class CaptureViewController: ViewController, AcessoBioManagerDelegate, AcessoBioSelfieDelegate {
    private let createHumanTokenProcess: @Sendable () async throws -> String
    let log = CallbackLog()

    init(device: SimulatedDevice, backend: @escaping @Sendable () async throws -> String) {
        createHumanTokenProcess = backend
        super.init(device: device, title: "CaptureViewController")
        log.host = self
    }

    func startCapture() {
        Task {
            // The backend calls Create Process and returns the `webAppToken` field of the response.
            let webAppToken = try await createHumanTokenProcess()

            let camera = AcessoBioManager(viewController: self, delegate: self)
                .setEnvironment(.UAT)
                .build()
            camera?.prepareAndOpenSelfieCamera(self, webAppToken: webAppToken)
        }
    }

    func onSuccess(_ successResult: SuccessResult) { log.add(.onSuccess(processId: successResult.processId)) }
    func onSuccessSelfie(_ result: SelfieResult) { log.add(.onSuccessSelfie) }
    func onErrorSelfie(_ errorBio: ErrorBio) { log.add(.onErrorSelfie(code: errorBio.code)) }

    func onErrorAcessoBioManager(_ error: ErrorBio) { log.add(.onErrorAcessoBioManager(code: error.code)) }
    func onUserClosedCameraManually() { log.add(.onUserClosedCameraManually) }
    func onSystemClosedCameraTimeoutSession() { log.add(.onSystemClosedCameraTimeoutSession) }
    func onSystemChangedTypeCameraTimeoutFaceInference() { log.add(.onSystemChangedTypeCameraTimeoutFaceInference) }
}

@Suite("The seed's sample")
struct SeedSampleTests {
    @Test func theSampleRunsAJourneyEndToEnd() async throws {
        try await withUnico { unico in
            let created = Mutex<String?>(nil)
            let record = await Self.runSample(on: unico.device(.approve)) {
                let process = try await unico.createProcess()
                created.withLock { $0 = process.id }
                return process.webAppToken
            }
            expectWellBehaved(record)
            let id = try #require(created.withLock { $0 })
            #expect(record.callbacks == [.onSuccess(processId: id)])
            #expect(try await unico.process(id).result == .ok)
        }
    }

    @SDKMainActor
    static func runSample(on device: SimulatedDevice, backend: @escaping @Sendable () async throws -> String) async
        -> CaptureRecord
    {
        let screen = CaptureViewController(device: device, backend: backend)
        screen.startCapture()
        let record = await screen.log.ending()
        withExtendedLifetime(screen) {}
        return record
    }

    @Test func buildIsNilOnceTheHostScreenIsGone() async throws {
        let device = SimulatedDevice(emulatorURL: try #require(URL(string: "http://127.0.0.1:9")))
        let built = await SDKMainActor.run { () -> (withHost: Bool, withoutHost: Bool) in
            let log = CallbackLog()
            let delegate = CompleteDelegate(log)
            var host: ViewController? = ViewController(device: device)
            let manager = AcessoBioManager(viewController: host!, delegate: delegate).setEnvironment(.UAT)
            let withHost = manager.build() != nil
            host = nil
            return (withHost, manager.build() != nil)
        }
        #expect(built.withHost)
        #expect(!built.withoutHost)
    }

    @Test func setEnvironmentReturnsTheSameBuilder() async throws {
        let device = SimulatedDevice(emulatorURL: try #require(URL(string: "http://127.0.0.1:9")))
        let result = await SDKMainActor.run { () -> (same: Bool, before: EnvironmentEnum?, after: EnvironmentEnum?) in
            let host = ViewController(device: device)
            let delegate = CompleteDelegate(CallbackLog())
            let manager = AcessoBioManager(viewController: host, delegate: delegate)
            let before = manager.environment
            let same = manager.setEnvironment(.UAT) === manager
            return (same, before, manager.build()?.environment)
        }
        #expect(result.same)
        #expect(result.before == nil, "no default environment: without setEnvironment the capture is 73204")
        #expect(result.after == .UAT)
    }
}
