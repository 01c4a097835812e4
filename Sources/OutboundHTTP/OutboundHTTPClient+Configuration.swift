import Foundation

extension OutboundHTTPClient {
    /// The client's bounds and trust.
    public struct Configuration: Sendable {
        /// The whole call: connecting, TLS, sending, and the answer up to the body cap; 15 s by default.
        public var timeout: TimeInterval
        /// Each connection attempt (the next address is tried after it), within ``timeout``; 5 s by default.
        public var connectTimeout: TimeInterval
        /// Most bytes of an answer's body read; the connection is closed past them. 64 KiB by default.
        public var maxResponseBytes: Int
        /// Most bytes of an answer's status line and header fields (trailers too); 32 KiB by default.
        public var maxHeadBytes: Int
        /// Certificates trusted for `https` besides the system's store (a private CA); none by default.
        public var trustedCertificates: CertificateBundle?

        public init(
            timeout: TimeInterval = 15, connectTimeout: TimeInterval = 5, maxResponseBytes: Int = 64 << 10,
            maxHeadBytes: Int = 32 << 10, trustedCertificates: CertificateBundle? = nil
        ) {
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maxResponseBytes = maxResponseBytes
            self.maxHeadBytes = maxHeadBytes
            self.trustedCertificates = trustedCertificates
        }
    }
}
