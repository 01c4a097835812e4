import Foundation

extension OutboundHTTPClient {
    /// The client's bounds, trust and kept-alive connections.
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
        /// Most idle connections kept open per destination (scheme, host, port) for later requests;
        /// 8 by default. Zero keeps none: every request then says `Connection: close`.
        public var maxIdleConnectionsPerHost: Int
        /// Most idle connections kept open in all (the oldest is closed past it); 64 by default.
        public var maxIdleConnections: Int
        /// How long an idle connection is kept; 20 s by default, under the idle timeouts of this
        /// project's `HTTPServer` (30 s) and nginx (75 s). A server that closes sooner is noticed
        /// before reuse, or costs one retry on a fresh connection.
        public var idleTimeout: TimeInterval

        public init(
            timeout: TimeInterval = 15, connectTimeout: TimeInterval = 5, maxResponseBytes: Int = 64 << 10,
            maxHeadBytes: Int = 32 << 10, trustedCertificates: CertificateBundle? = nil,
            maxIdleConnectionsPerHost: Int = 8, maxIdleConnections: Int = 64, idleTimeout: TimeInterval = 20
        ) {
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maxResponseBytes = maxResponseBytes
            self.maxHeadBytes = maxHeadBytes
            self.trustedCertificates = trustedCertificates
            self.maxIdleConnectionsPerHost = maxIdleConnectionsPerHost
            self.maxIdleConnections = maxIdleConnections
            self.idleTimeout = idleTimeout
        }
    }
}
