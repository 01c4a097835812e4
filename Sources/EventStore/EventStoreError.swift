import ErrorCodes
import Postgres

/// An event store failure with a stable `code`.
public struct EventStoreError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let wrongExpectedVersion = Code(rawValue: "wrong_expected_version")
        public static let duplicateEventID = Code(rawValue: "duplicate_event_id")
        public static let invalidEvent = Code(rawValue: "invalid_event")
        public static let streamNotFound = Code(rawValue: "stream_not_found")
        /// An event type the stream's prefix does not take (JS005): `journey-*` streams take the
        /// journey event types only, `unico-webhooks` its one type, and any type is well formed
        /// (1-100 characters from an ASCII letter, no whitespace, control characters, quotes,
        /// backslash, braces, commas or `@`; migration 0041).
        public static let eventTypeNotAllowed = Code(rawValue: "event_type_not_allowed")
        /// An actor present but not well formed, e.g. `api-key:abcd2345` is (JS006, migration 0041).
        public static let invalidActor = Code(rawValue: "invalid_actor")
        /// A newer transaction appended to the stream first; retry the whole transaction.
        public static let orderConflict = Code(rawValue: "order_conflict")
        public static let database = Code(rawValue: "database_error")
    }

    public let code: Code
    public let message: String
    /// For `wrong_expected_version`: the stream's version when the append was refused.
    public let currentVersion: Int64?
    public let underlying: PostgresError?

    public init(_ code: Code, _ message: String, currentVersion: Int64? = nil, underlying: PostgresError? = nil) {
        self.code = code
        self.message = message
        self.currentVersion = currentVersion
        self.underlying = underlying
    }

    /// `wrong_expected_version` for `stream`, the same from the direct and the grouped path.
    static func wrongVersion(
        stream: StreamName, expected: ExpectedVersion, current: Int64?,
        underlying: PostgresError? = nil
    ) -> EventStoreError {
        EventStoreError(
            .wrongExpectedVersion,
            "stream \(stream) is at version \(current.map(String.init) ?? "?"), expected \(expected)",
            currentVersion: current, underlying: underlying)
    }

    /// Maps the append function's SQLSTATEs and constraint violations.
    static func from(_ error: PostgresError, stream: StreamName, expected: ExpectedVersion) -> Error {
        switch error.sqlState {
        case "JS004":
            let current = error.detail?.split(separator: " ").last.flatMap { Int64($0) }
            return wrongVersion(stream: stream, expected: expected, current: current, underlying: error)
        case "JS003", "23505":
            return EventStoreError(.duplicateEventID, "an event id of this append is already stored elsewhere", underlying: error)
        case "40001":
            return EventStoreError(
                .orderConflict,
                "stream \(stream) was appended by a newer transaction; retry the transaction", underlying: error)
        case "JS005":
            return EventStoreError(
                .eventTypeNotAllowed,
                "an event type of this append is not allowed on stream \(stream) (journey-* streams take the journey event types; a type is 1-100 characters starting with an ASCII letter, without whitespace, control characters, quotes, backslash, braces, commas or '@')",
                underlying: error)
        case "JS006":
            return EventStoreError(
                .invalidActor,
                "malformed actor: an actor is absent or 1-100 characters starting with an ASCII letter, without whitespace, control characters, quotes, backslash, braces, commas or '@'",
                underlying: error)
        case "JS001", "JS002":
            return EventStoreError(.invalidEvent, error.message, underlying: error)
        case let state? where state.hasPrefix("22"):
            return EventStoreError(.invalidEvent, "invalid event: \(error.message)", underlying: error)
        default:
            return error
        }
    }
}
