import ErrorCodes

/// An outbound request that got no usable answer: a stable ``code`` and a message naming the host
/// and address, never a path, a query, a header value or a body (they may carry secrets).
public struct OutboundHTTPError: CodedError, Hashable {
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request cannot be sent: not http or https, no host, a control character in the
        /// target or a header, or no address to connect to.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// A setting is unusable (a CA file that holds no certificate).
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The host name did not resolve.
        public static let hostUnresolved = Code(rawValue: "host_unresolved")
        /// No address accepted the connection (each one's reason in the message).
        public static let connectFailed = Code(rawValue: "connect_failed")
        /// The TLS handshake failed, the certificate among others (not trusted, wrong name, expired).
        public static let tlsFailed = Code(rawValue: "tls_failed")
        /// The deadline passed (connecting, sending or reading the answer).
        public static let timedOut = Code(rawValue: "timed_out")
        /// The connection closed or failed before the answer was complete.
        public static let connectionLost = Code(rawValue: "connection_lost")
        /// The answer is not HTTP/1.x, or its head is over the size limit.
        public static let malformedResponse = Code(rawValue: "malformed_response")
        /// The calling task was cancelled; the connection is closed.
        public static let cancelled = Code(rawValue: "cancelled")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
