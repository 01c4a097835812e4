import Foundation

extension UnicoEmulator {
    /// Documented process states.
    public enum ProcessState: String, Sendable, Hashable, Codable {
        case created = "PROCESS_STATE_CREATED"
        case failed = "PROCESS_STATE_FAILED"
        case finished = "PROCESS_STATE_FINISHED"
    }

    /// Documented process results.
    public enum ProcessResult: String, Sendable, Hashable, Codable {
        case unspecified = "PROCESS_RESULT_UNSPECIFIED"
        case ok = "PROCESS_RESULT_OK"
        case error = "PROCESS_RESULT_ERROR"
        case invalidIdentity = "PROCESS_RESULT_INVALID_IDENTITY"
        case expired = "PROCESS_RESULT_EXPIRED"

        /// The webhook's lowercase vocabulary (`ok`, `expired`, `invalid_identity`; `error` is ours).
        var webhookValue: String {
            switch self {
            case .ok: "ok"
            case .expired: "expired"
            case .invalidIdentity: "invalid_identity"
            case .error, .unspecified: "error"
            }
        }
    }

    /// A process as the emulator holds it; no personal data beyond the document type.
    public struct ProcessRecord: Sendable, Hashable {
        public var id: String
        public var tenantID: String
        public var environment: Environment
        public var clientReference: String?
        public var flow: String
        public var purpose: String
        public var callbackUri: String
        public var duiType: String
        public var state: ProcessState
        public var result: ProcessResult
        public var createdAt: Date
        public var expiresAt: Date
        public var finishedAt: Date?
        /// `data.humanToken.value`, set when the process finished OK.
        public var humanToken: String?
        /// The last event, reported with expired results (e.g. `EVENT_TYPE_SESSION_ENDED`).
        public var lastEvent: String?
        /// Whether a capture was ever prepared for this process.
        public var captureStarted: Bool
        /// The channels Unico would notify the person of the link through (names only, no contact data).
        public var notificationChannels: [String] = []

        /// Finishes the process unless it already is.
        mutating func finish(result: ProcessResult, at date: Date, humanToken: String?, lastEvent: String?) -> Bool {
            guard state == .created else { return false }
            state = .finished
            self.result = result
            finishedAt = date
            self.humanToken = result == .ok ? humanToken : nil
            self.lastEvent = result == .expired ? lastEvent : nil
            return true
        }

        /// Finishes an overdue process as expired; true when that happened now.
        mutating func expireIfDue(now: Date) -> Bool {
            guard state == .created, now >= expiresAt else { return false }
            let event = captureStarted ? "EVENT_TYPE_SESSION_ENDED" : "EVENT_TYPE_PROCESS_CREATED"
            return finish(result: .expired, at: expiresAt, humanToken: nil, lastEvent: event)
        }
    }
}
