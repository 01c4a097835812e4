import Foundation
import JourneyClient
#if canImport(AcessoBio)
import AcessoBio
import UIKit
#else
import SDKLiteSimulator  // the test suite compiles this screen against the SDK Lite simulator
typealias UIViewController = ViewController
#endif

/// The capture screen: a fresh `webAppToken` right before the SDK Lite opens, and every SDK
/// callback reported to the journey service. The app's backend started the journey and gave
/// the app its `JourneyStart` (journey id and client token); no credential is in the app.
final class CaptureViewController: UIViewController, AcessoBioManagerDelegate, AcessoBioSelfieDelegate {
    /// What the screen shows.
    enum Screen: Sendable, Equatable {
        case preparing
        case capturing(attempt: Int)
        /// The capture ended; `status` is what the service answered (`completed` with `outcome`
        /// approved or rejected, or `awaitingResult` while it fetches the result).
        case finished(JourneyStatus)
        /// The capture ended without a result; "Try again" calls `startCapture()` (a new process).
        case tryAgain(code: Int?)
        /// The journey cannot continue (ended, out of attempts, or an integration error to fix).
        case cannotContinue(reason: String)
        /// The client token expired or is invalid: ask the backend for a new one.
        case needsNewJourney
        /// The service or Unico is unavailable for now.
        case retryLater(seconds: TimeInterval?)
    }

    /// The client of the journey the backend started:
    /// `JourneyClient(start: journeyStart, baseURL: URL(string: "https://journeys.example.com")!)`.
    var journey: JourneyClient?
    /// Draws the screen; every call arrives on the main queue.
    var show: (Screen) -> Void = { _ in }

    /// The "Start" button: a token for this capture, reported as opened, then the SDK Lite.
    func startCapture() {
        guard let journey else { return }
        show(.preparing)
        Task {
            do {
                // Right before opening: the service creates the Unico process (one per capture)
                // and answers its webAppToken, valid 5 minutes, and its environment.
                let grant = try await journey.refreshToken()
                guard
                    let camera = AcessoBioManager(viewController: self, delegate: self)
                        .setEnvironment(grant.environment == .prod ? .PROD : .UAT)  // same as the process
                        .build()  // imported into Swift as an optional
                else { return }
                try await journey.reportCaptureOpened()
                show(.capturing(attempt: grant.attempt))
                camera.prepareAndOpenSelfieCamera(self, webAppToken: grant.webAppToken)
            } catch {
                showFailure(error)
            }
        }
    }

    // MARK: AcessoBioSelfieDelegate (callbacks arrive on the main queue)

    /// Required, although the protocol declares it optional: without it the capture does not
    /// open and `onErrorSelfie` receives 74001. It means the journey ended, not an approval.
    func onSuccess(_ successResult: SuccessResult) {
        let processID = successResult.processId
        report { try await $0.reportSuccess(processID: processID) }
    }

    /// Required by the protocol; the SDK Lite sends the result to `onSuccess(_:)`.
    func onSuccessSelfie(_ result: SelfieResult) {}

    func onErrorSelfie(_ errorBio: ErrorBio) {
        let code = errorBio.code
        report(code: code) { try await $0.reportError(code: code) }
    }

    // MARK: AcessoBioManagerDelegate

    func onErrorAcessoBioManager(_ error: ErrorBio) {
        let code = error.code
        report(code: code) { try await $0.reportError(code: code) }
    }

    func onUserClosedCameraManually() {
        report { try await $0.reportClosedByUser() }
    }

    func onSystemClosedCameraTimeoutSession() {
        report { try await $0.reportSessionTimedOut() }
    }

    /// The camera switched to manual capture; the capture goes on. Recorded for support, best
    /// effort: nothing on the screen changes.
    func onSystemChangedTypeCameraTimeoutFaceInference() {
        guard let journey else { return }
        Task { _ = try? await journey.reportFaceInferenceTimedOut() }
    }

    // MARK: Reports

    /// Sends a report, again on a network failure (a repeated report is recorded once), then
    /// shows what the service's answer says.
    private func report(code: Int? = nil, _ call: @escaping @Sendable (JourneyClient) async throws -> JourneyStatus) {
        guard let journey else { return }
        Task {
            var tries = 0
            while true {
                do {
                    showStatus(try await call(journey), code: code)
                    return
                } catch let error as JourneyClientError where error.isRetryable && tries < 3 {
                    tries += 1
                    let seconds = error.retryAfter ?? Double(tries)
                    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                } catch {
                    showFailure(error)
                    return
                }
            }
        }
    }

    private func showStatus(_ status: JourneyStatus, code: Int?) {
        switch status.status {
        case "completed", "awaitingResult":
            show(.finished(status))  // approved or rejected: read status.outcome, never onSuccess alone
        case "abandoned":
            show(.cannotContinue(reason: status.lastErrorCode?.action ?? "the journey ended"))
        default:
            show(.tryAgain(code: code))  // retryScheduled/retryAvailable: the next capture gets a new process
        }
    }

    private func showFailure(_ error: any Error) {
        guard let error = error as? JourneyClientError else {
            return show(.retryLater(seconds: nil))
        }
        if error.needsNewClientToken {
            show(.needsNewJourney)
        } else if error.isRetryable {
            show(.retryLater(seconds: error.retryAfter))
        } else {
            show(.cannotContinue(reason: error.code))  // e.g. attempts_exhausted, invalid_transition
        }
    }
}
