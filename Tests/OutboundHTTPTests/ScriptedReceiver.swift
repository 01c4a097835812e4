import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A receiver on a raw TCP socket (TLS when given a ``TLSServer``) that runs a script per
/// connection on a thread of its own: read the request, then answer byte by byte as the test
/// says. It records what it got, and what it managed to send before the client went away.
final class ScriptedReceiver: Sendable {
    /// One request as received: the head's lines and the body (per `Content-Length`).
    struct Request: Sendable {
        var lines: [String]
        var body: [UInt8]

        /// A header's value by case-insensitive name.
        func header(_ name: String) -> String? {
            lines.dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
    }

    let host: String
    let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())
    private let sentBytes = Atomic<Int>(0)

    private struct State {
        var requests: [Request] = []
        var connections = 0
        var finished = 0
        var closedByClient = 0
        var serverNames: [String?] = []
    }

    /// Listens on `host` (`port` 0: a free one) with room for `backlog` unaccepted connections;
    /// `accepting: false` never accepts (a listener whose queue fills up).
    init(
        host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 16, accepting: Bool = true, tls: TLSServer? = nil,
        script: @escaping @Sendable (Connection) -> Void = { $0.answer("HTTP/1.1 204 No Content\r\n\r\n") }
    ) throws {
        signal(SIGPIPE, SIG_IGN)  // the TLS side writes through OpenSSL's socket BIO
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, backlog) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.host = host
        self.listener = listener
        self.port = UInt16(bigEndian: address.sin_port)
        guard accepting else { return }
        let thread = Thread { [self] in serve(tls: tls, script: script) }
        thread.start()
    }

    deinit { close(listener) }

    /// Stops accepting (the thread ends after the connection it is serving).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    func url(_ path: String = "/hook", scheme: String = "http", host: String? = nil) -> URL {
        URL(string: "\(scheme)://\(host ?? self.host):\(port)\(path)")!
    }

    var requests: [Request] { state.withLock { $0.requests } }
    var connections: Int { state.withLock { $0.connections } }
    /// Connections whose script has ended.
    var finished: Int { state.withLock { $0.finished } }
    /// Connections the client closed while the script was still sending or waiting.
    var closedByClient: Int { state.withLock { $0.closedByClient } }
    /// The TLS server name (SNI) each connection asked for.
    var serverNames: [String?] { state.withLock { $0.serverNames } }
    /// Bytes the scripts sent, the heads included.
    var sent: Int { sentBytes.load(ordering: .acquiring) }

    private func serve(tls: TLSServer?, script: @Sendable (Connection) -> Void) {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { return }
            state.withLock { $0.connections += 1 }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connection = Connection(descriptor: descriptor, tls: tls, receiver: self)
            if connection.handshake() { script(connection) }
            state.withLock {
                $0.finished += 1
                if connection.clientClosed { $0.closedByClient += 1 }
            }
        }
    }

    fileprivate func record(_ request: Request) { state.withLock { $0.requests.append(request) } }
    fileprivate func record(serverName: String?) { state.withLock { $0.serverNames.append(serverName) } }
    fileprivate func count(_ sent: Int) { sentBytes.add(sent, ordering: .releasing) }

    /// One accepted connection, as the script sees it.
    final class Connection {
        let descriptor: Int32
        private let ssl: OpaquePointer?
        private unowned let receiver: ScriptedReceiver
        /// A send or receive found the client gone.
        private(set) var clientClosed = false

        fileprivate init(descriptor: Int32, tls: TLSServer?, receiver: ScriptedReceiver) {
            self.descriptor = descriptor
            self.receiver = receiver
            if let tls, let ssl = SSL_new(tls.context) {
                SSL_set_fd(ssl, descriptor)
                self.ssl = ssl
            } else {
                ssl = nil
            }
        }

        deinit {
            if let ssl { SSL_free(ssl) }
            close(descriptor)
        }

        fileprivate func handshake() -> Bool {
            guard let ssl else { return true }
            let accepted = SSL_accept(ssl) == 1
            receiver.record(serverName: shim_SSL_get_servername(ssl).map { String(cString: $0) })
            return accepted
        }

        /// Reads one request (head, then `Content-Length` bytes of body) and records it; nil when
        /// the client went away first.
        @discardableResult
        func readRequest() -> Request? {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                if let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                    var request = Request(lines: lines, body: [])
                    let length = request.header("Content-Length").flatMap { Int($0) } ?? 0
                    if bytes.count - end.upperBound >= length {
                        request.body = Array(bytes[end.upperBound..<end.upperBound + length])
                        receiver.record(request)
                        return request
                    }
                }
                let count = receive(&buffer)
                guard count > 0 else { return nil }
                bytes.append(contentsOf: buffer[0..<count])
            }
        }

        /// Reads the request, then sends `answer`.
        func answer(_ answer: String) {
            guard readRequest() != nil else { return }
            _ = send(Array(answer.utf8))
        }

        /// Answers each request on the connection with `answer` until the client closes it.
        func answerEach(_ answer: String) {
            while readRequest() != nil {
                guard send(Array(answer.utf8)) else { return }
            }
            clientClosed = true
        }

        /// Sends every byte; false when the client went away.
        func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { raw -> Int in
                    if let ssl { return Int(SSL_write(ssl, raw.baseAddress, Int32(raw.count))) }
                    return Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else {
                    clientClosed = true
                    return false
                }
                offset += count
                receiver.count(count)
            }
            return true
        }

        /// Waits until the client closes the connection (a receive finds its end); true when it did
        /// within the socket's 10 s receive timeout.
        func waitForClientClose() -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = receive(&buffer)
                if count == 0 {
                    clientClosed = true
                    return true
                }
                if count < 0 { return false }
            }
        }

        /// Sends `byte` every `interval` until the client closes the connection.
        func drip(_ byte: UInt8, every interval: Int32) {
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&watched, 1, interval) == 0 {
                guard send([byte]) else { return }
            }
            _ = waitForClientClose()
        }

        /// A send buffer this small bounds what the kernel holds beyond what the client read.
        func limitSendBuffer(_ bytes: Int32) {
            var size = bytes
            setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }

        private func receive(_ buffer: inout [UInt8]) -> Int {
            buffer.withUnsafeMutableBytes { raw -> Int in
                if let ssl {
                    let count = Int(SSL_read(ssl, raw.baseAddress, Int32(raw.count)))
                    return count > 0 ? count : (SSL_get_error(ssl, Int32(count)) == SSL_ERROR_ZERO_RETURN ? 0 : -1)
                }
                let count = recv(descriptor, raw.baseAddress, raw.count, 0)
                return count < 0 && errno == ECONNRESET ? 0 : count
            }
        }
    }
}

/// A plain blocking connection a test opens and holds (to fill a listener's queue).
final class FillerConnection {
    private let descriptor: Int32

    init(to host: String, port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    func close() { Glibc.close(descriptor) }
}
