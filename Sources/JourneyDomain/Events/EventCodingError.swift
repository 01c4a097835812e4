import ErrorCodes

/// An event could not be turned into or read from its stored form.
public struct EventCodingError: CodedError, Hashable {
    /// Stable machine-readable code.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The type string names no known event.
        public static let unknownEventType = Code(rawValue: "unknown_event_type")
        /// The data does not decode as the named event.
        public static let malformedEvent = Code(rawValue: "malformed_event")
        /// The event could not be encoded.
        public static let encodingFailed = Code(rawValue: "encoding_failed")
    }

    public var code: Code
    public var eventType: String
    public var message: String

    public init(code: Code, eventType: String, message: String) {
        self.code = code
        self.eventType = eventType
        self.message = message
    }
}
