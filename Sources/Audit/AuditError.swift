import ErrorCodes

/// An audit failure with a stable `code`; messages never carry personal data or key material.
public struct AuditError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// No journey has this id (or it had no event yet at the requested time).
        public static let journeyNotFound = Code(rawValue: "journey_not_found")
        /// A timestamp, id or option value is malformed; `field` names it.
        public static let invalidInput = Code(rawValue: "invalid_input")
        /// The signing key is missing, unreadable or not an Ed25519 key.
        public static let signingKey = Code(rawValue: "signing_key")
        /// A stored event does not decode as a journey event.
        public static let undecodableEvent = Code(rawValue: "undecodable_event")
    }

    public let code: Code
    public let message: String
    /// The input field at fault, for `invalid_input`.
    public let field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }
}
