extension HTTPServer {
    /// Listening and resource limits for an `HTTPServer`.
    public struct Configuration: Sendable, Equatable {
        /// Numeric IPv4 or IPv6 address to bind (`localhost` means 127.0.0.1). Default `127.0.0.1`.
        public var host: String
        /// TCP port; 0 picks a free one, read it from `HTTPServer.port` after start. Default 8080.
        public var port: Int
        /// Largest accepted request body in bytes; larger ones get a 413 `payload_too_large`
        /// problem. Default 1 MiB.
        public var maxBodySize: Int
        /// Largest accepted request head (request line and header fields) in bytes; larger ones
        /// get a 431 `header_fields_too_large` problem. libmicrohttpd keeps each connection's head
        /// in `headerMemory` bytes and answers a bare 431 itself for heads beyond that. Default 32 KiB.
        public var maxHeaderSize: Int
        /// How long a connection may stay idle or stall mid-request before it is closed; whole
        /// seconds, rounded up, zero disables. Default 30 s.
        public var connectionTimeout: Duration
        /// Most simultaneous connections; further ones are refused. Default 1000.
        public var connectionLimit: Int
        /// Most simultaneous connections from one client: one IPv4 address, or one IPv6 /64 prefix
        /// (every address of a /64 counts as one client). Further ones are closed at once. Zero
        /// disables. Behind a load balancer every connection comes from its few addresses: raise it
        /// (or set zero) there. Default 256.
        public var connectionLimitPerAddress: Int
        /// How long a client has to send a whole request head (request line and header fields):
        /// from the connection's start for its first request, and from the previous response plus
        /// `connectionTimeout` for the next on a kept-alive connection. Late connections are cut
        /// without an answer. Unlike `connectionTimeout` this is not restarted by each byte, so a
        /// client sending a header line every few seconds is cut too. Zero disables. Default 10 s.
        public var requestHeadTimeout: Duration
        /// How long a client has to send a whole request body once its head arrived; late
        /// connections are cut without an answer. Like `requestHeadTimeout` it is not restarted by
        /// each byte, so a client announcing a large body and sending a byte now and then is cut
        /// too. The default allows the largest body (`maxBodySize`) at about 35 KB/s. Zero
        /// disables. Default 30 s.
        public var requestBodyTimeout: Duration
        /// libmicrohttpd polling threads (epoll each); handlers never run on them. Default 2.
        public var threadPoolSize: Int
        /// How long a graceful shutdown waits for in-flight requests. Default 10 s.
        public var shutdownTimeout: Duration

        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            maxBodySize: Int = 1 << 20,
            maxHeaderSize: Int = 32 << 10,
            connectionTimeout: Duration = .seconds(30),
            connectionLimit: Int = 1000,
            connectionLimitPerAddress: Int = 256,
            requestHeadTimeout: Duration = .seconds(10),
            requestBodyTimeout: Duration = .seconds(30),
            threadPoolSize: Int = 2,
            shutdownTimeout: Duration = .seconds(10)
        ) {
            self.host = host
            self.port = port
            self.maxBodySize = maxBodySize
            self.maxHeaderSize = maxHeaderSize
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
            self.connectionLimitPerAddress = connectionLimitPerAddress
            self.requestHeadTimeout = requestHeadTimeout
            self.requestBodyTimeout = requestBodyTimeout
            self.threadPoolSize = threadPoolSize
            self.shutdownTimeout = shutdownTimeout
        }

        /// Throws `invalid_configuration` for out-of-range values.
        func validate() throws(HTTPServerError) {
            func check(_ condition: Bool, _ message: String) throws(HTTPServerError) {
                if !condition { throw HTTPServerError(code: .invalidConfiguration, message: message) }
            }
            try check((0...65535).contains(port), "port must be in 0...65535")
            try check(maxBodySize >= 0, "maxBodySize must not be negative")
            try check(maxHeaderSize >= 1024, "maxHeaderSize must be at least 1024")
            try check(connectionTimeout >= .zero, "connectionTimeout must not be negative")
            try check(connectionLimit >= 1, "connectionLimit must be at least 1")
            try check(connectionLimitPerAddress >= 0, "connectionLimitPerAddress must not be negative")
            try check(requestHeadTimeout >= .zero, "requestHeadTimeout must not be negative")
            try check(requestBodyTimeout >= .zero, "requestBodyTimeout must not be negative")
            try check(threadPoolSize >= 1, "threadPoolSize must be at least 1")
            try check(shutdownTimeout >= .zero, "shutdownTimeout must not be negative")
        }

        /// libmicrohttpd's memory per connection (head, read and write buffers): room for heads
        /// of several times `maxHeaderSize`, so that they still get the problem answer.
        var headerMemory: Int {
            4 * maxHeaderSize + (64 << 10)
        }

        /// The bind address with `localhost` resolved.
        var numericHost: String {
            host == "localhost" ? "127.0.0.1" : host
        }

        /// The request deadlines the configuration asks for; nil when `requestHeadTimeout` and
        /// `requestBodyTimeout` are both zero.
        func makeDeadlines() -> RequestDeadlines? {
            guard requestHeadTimeout > .zero || requestBodyTimeout > .zero else { return nil }
            let head = requestHeadTimeout > .zero ? requestHeadTimeout : nil
            let keepAlive = head.flatMap { connectionTimeout > .zero ? max(connectionTimeout, $0) : nil }
            return RequestDeadlines(
                headTimeout: head, keepAliveTimeout: keepAlive,
                bodyTimeout: requestBodyTimeout > .zero ? requestBodyTimeout : nil)
        }

        /// The per-address connection limit; nil when `connectionLimitPerAddress` is zero.
        func makeAddressLimit() -> ConnectionsPerAddress? {
            connectionLimitPerAddress > 0 ? ConnectionsPerAddress(limit: connectionLimitPerAddress) : nil
        }

        /// `connectionTimeout` in whole seconds, rounded up.
        var connectionTimeoutSeconds: UInt32 {
            let (seconds, attoseconds) = connectionTimeout.components
            return UInt32(clamping: seconds + (attoseconds > 0 ? 1 : 0))
        }
    }
}
