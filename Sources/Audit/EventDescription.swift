import Foundation
import JourneyDomain
import Timestamps

/// One short, human sentence per journey event; never reads sealed fields or free-text details.
public enum EventDescription {
    /// Describes `event`.
    public static func describe(_ event: JourneyEvent) -> String {
        switch event {
        case .journeyStarted(let e):
            return "journey started (\(e.environment.rawValue), flow \(e.flow.rawValue), purpose \(e.purpose.rawValue))"
        case .processCreationRequested(let e):
            return "asked Unico to create a process (attempt \(e.attempt), \(e.trigger.rawValue))"
        case .processCreated(let e):
            return "Unico created process \(e.processID.rawValue); token valid until \(RFC3339.string(from: e.tokenExpiresAt))"
        case .processCreationFailed(let e):
            return "Create Process failed (\(e.failure.httpStatus.map { "HTTP \($0)" } ?? "no answer")"
                + "\(e.failure.retryable ? ", retryable" : ""))"
        case .tokenIssued(let e):
            return e.reused ? "token handed to the app again" : "token handed to the app"
        case .captureOpened(let e):
            return "app opened the capture" + superseded(e.superseded)
        case .callbackReceived(let e):
            switch e.outcome {
            case .success: return "app reported a successful capture" + superseded(e.superseded)
            case .error(let code):
                let meaning = SDKErrorCatalog.standard.entry(for: code).meaning
                return "app reported SDK error \(code.rawValue): \(meaning)" + superseded(e.superseded)
            }
        case .webhookReceived(let e):
            return "Unico webhook: process \(e.state)\(e.result.map { ", result \($0)" } ?? "")" + superseded(e.superseded)
        case .resultPending(let e):
            // A probe after a post-capture 73302 asks once: no next fetch (its `nextFetchAt` is itself).
            guard e.nextFetchAt > e.occurredAt else {
                return "result not ready (process \(e.processState.rawValue)); asked once, no further fetch"
            }
            return "result not ready (process \(e.processState.rawValue)); next fetch at \(RFC3339.string(from: e.nextFetchAt))"
        case .resultFetched(let e):
            return "result fetched: process \(e.processState.rawValue), result \(e.processResult.rawValue)"
        case .tokenExpired(let e):
            return "token expired (detected by \(e.detectedBy.rawValue))"
        case .attemptFailed(let e):
            let code = e.reason.sdkCode.map { " \($0.rawValue)" } ?? ""
            let next = e.retryAt.map { "retry at \(RFC3339.string(from: $0))" } ?? "no retry"
            return "attempt \(e.attempt) failed: \(e.reason.kind.rawValue)\(code); \(next)"
        case .journeyCompleted(let e):
            return "journey completed: \(e.outcome.rawValue)"
        case .journeyAbandoned(let e):
            return "journey abandoned: \(e.reason.kind.rawValue)\(e.reason.sdkCode.map { " (SDK error \($0.rawValue))" } ?? "")"
        case .retryAllowed(let e):
            return "next attempt allowed; abandoned at \(RFC3339.string(from: e.abandonAt)) unless the app asks for a token"
        case .captureClosedByUser(let e):
            return "app reported the user closed the capture" + superseded(e.superseded)
        case .captureSessionTimedOut(let e):
            return "app reported the capture session timed out" + superseded(e.superseded)
        case .linkIssued:
            return "link handed to the app"
        case .subjectErased(let e):
            return "subject erased by \(e.requestedBy): \(e.reason)"
        case .personalDataDisclosed(let e):
            return "\(e.fields.joined(separator: ", ")) opened by \(e.actor) via \(e.channel); purpose: \(e.purpose)"
        case .journeyCancelled(let e):
            return "journey cancelled by \(e.actor)"
        case .attemptReplaced(let e):
            return "attempt \(e.attempt) replaced by attempt \(e.replacedBy) ("
                + (e.reason == .newCapture ? "the app asked for a new capture" : "its token was about to expire") + ")"
        case .faceInferenceTimedOut:
            return "app reported face inference timed out; the capture went on manually"
        }
    }

    private static func superseded(_ flag: Bool) -> String { flag ? " (superseded attempt)" : "" }
}
