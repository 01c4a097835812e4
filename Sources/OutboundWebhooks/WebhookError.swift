import ErrorCodes

/// A failure configuring or running outbound webhooks: a stable ``code`` and a message that
/// names fields and ids only, never a secret, a URL's credentials or a payload.
public struct WebhookError: CodedError, Hashable {
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A URL, key reference or other argument is malformed.
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// No API key has the given id or prefix.
        public static let keyNotFound = Code(rawValue: "key_not_found")
        /// A sealed secret did not open (wrong KEK, unknown KEK id or tampered bytes).
        public static let secretUnreadable = Code(rawValue: "secret_unreadable")
        /// A key or setting in the configuration is missing or malformed.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The destination is loopback, private, link-local, metadata or unspecified and not allow-listed.
        public static let destinationRefused = Code(rawValue: "destination_refused")
        /// The endpoint's host name did not resolve.
        public static let hostUnresolved = Code(rawValue: "host_unresolved")
        /// No delivery has the given id.
        public static let deliveryNotFound = Code(rawValue: "delivery_not_found")
        /// No endpoint of the caller's tenant has the given id.
        public static let endpointNotFound = Code(rawValue: "endpoint_not_found")
        /// The key is revoked: its endpoints cannot be created or enabled, and receive nothing.
        public static let keyRevoked = Code(rawValue: "key_revoked")
        /// The endpoint has no secret (dropped by an upgrade): set it again to issue one.
        public static let secretMissing = Code(rawValue: "secret_missing")
        /// The message is still pending at that endpoint, so it cannot be sent again yet.
        public static let deliveryPending = Code(rawValue: "delivery_pending")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
