import Foundation
import JourneyClient
import SDKLiteSimulator

/// A capture screen that hands each report back to the test (the iOS guide's own screen is
/// `CaptureViewController.swift`), on the SDK Lite simulator:
/// each delegate method of the seed calls the client.
@SDKMainActor
final class CaptureScreen: AcessoBioManagerDelegate, AcessoBioSelfieDelegate {
    /// What the screen did once the capture ended.
    enum Event: Sendable, Hashable {
        /// `onSuccess(_:)` -> `reportSuccess(processID:)`.
        case reportedSuccess(processID: String, JourneyStatus)
        /// `onErrorSelfie(_:)`/`onErrorAcessoBioManager(_:)` -> `reportError(code:)`.
        case reportedError(code: Int, JourneyStatus)
        /// `onUserClosedCameraManually` -> `reportClosedByUser()`; the app offers to try again.
        case closedByUser(JourneyStatus)
        /// `onSystemClosedCameraTimeoutSession` -> `reportSessionTimedOut()`; the app offers to try again.
        case sessionTimedOut(JourneyStatus)
        /// A report failed.
        case reportFailed(JourneyClientError)
    }

    let journey: JourneyClient
    private var continuation: CheckedContinuation<Event, Never>?
    private var hosts: [ViewController] = []

    init(journey: JourneyClient) {
        self.journey = journey
    }

    /// Before `prepareAndOpenSelfieCamera`: `refreshToken()` then `reportCaptureOpened()`; then
    /// opens the capture on `device` and waits for the screen's event.
    func capture(on device: SimulatedDevice) async throws(JourneyClientError) -> (TokenGrant, Event) {
        let grant = try await journey.refreshToken()
        let host = ViewController(device: device, title: "Capture")
        hosts.append(host)
        let camera = AcessoBioManager(viewController: host, delegate: self)
            .setEnvironment(grant.environment == .prod ? .PROD : .UAT)
            .build()
        try await journey.reportCaptureOpened()
        let event = await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
            self.continuation = continuation
            camera?.prepareAndOpenSelfieCamera(self, webAppToken: grant.webAppToken)
        }
        return (grant, event)
    }

    // AcessoBioSelfieDelegate

    func onSuccess(_ successResult: SuccessResult) {
        let processID = successResult.processId
        report { .reportedSuccess(processID: processID, try await $0.reportSuccess(processID: processID)) }
    }

    func onSuccessSelfie(_ result: SelfieResult) {}

    func onErrorSelfie(_ errorBio: ErrorBio) {
        let code = errorBio.code
        report { .reportedError(code: code, try await $0.reportError(code: code)) }
    }

    // AcessoBioManagerDelegate

    func onErrorAcessoBioManager(_ error: ErrorBio) {
        let code = error.code
        report { .reportedError(code: code, try await $0.reportError(code: code)) }
    }

    func onUserClosedCameraManually() { report { .closedByUser(try await $0.reportClosedByUser()) } }

    func onSystemClosedCameraTimeoutSession() { report { .sessionTimedOut(try await $0.reportSessionTimedOut()) } }

    func onSystemChangedTypeCameraTimeoutFaceInference() {}

    private func report(_ call: @escaping @Sendable (JourneyClient) async throws -> Event) {
        let journey = journey
        Task { @SDKMainActor in
            do {
                end(try await call(journey))
            } catch {
                end(
                    .reportFailed(
                        error as? JourneyClientError
                            ?? JourneyClientError(kind: .transport, status: 0, code: "unexpected", detail: "\(error)")))
            }
        }
    }

    private func end(_ event: Event) {
        continuation?.resume(returning: event)
        continuation = nil
    }
}
