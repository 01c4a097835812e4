import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A receiver on 127.0.0.1 that answers one webhook with `status` and a body streamed 64 KiB at
/// a time until the client goes away or `limit` bytes went out, counting what it managed to send;
/// or, `silent`, that never answers and waits for the client to close.
final class StreamingReceiver: Sendable {
    /// How the answer's body is framed.
    enum Framing: Sendable {
        /// `Content-Length` announcing this many bytes.
        case announced(Int)
        /// Chunks, without end.
        case chunked
        /// No length: the body runs until the connection closes.
        case untilClose
        /// No answer at all: the request is read, then the receiver waits for the client to leave.
        case silent
    }

    let port: Int
    private let listener: Int32
    private let sentBytes = Atomic<Int>(0)
    private let finishedFlag = Atomic<Bool>(false)

    init(status: Int, _ framing: Framing = .announced(1 << 30), limit: Int = 256 << 20) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(status: status, framing: framing, limit: limit) }
        thread.start()
    }

    deinit { close(listener) }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Bytes of the body sent before the client cut the connection (or `limit`).
    var sent: Int { sentBytes.load(ordering: .acquiring) }

    /// The answer ended: the client went away, or `limit` bytes went out.
    var finished: Bool { finishedFlag.load(ordering: .acquiring) }

    private func serve(status: Int, framing: Framing, limit: Int) {
        defer { finishedFlag.store(true, ordering: .releasing) }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A small send buffer: what the kernel holds for the client is not counted as read by it.
        var sendBuffer: Int32 = 64 << 10
        setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        // The request: its head, then Content-Length bytes of body.
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = request.firstRange(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                let length =
                    head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if request.count - end.upperBound >= length { break }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request.append(contentsOf: buffer[0..<count])
        }
        var head = "HTTP/1.1 \(status) X\r\nContent-Type: application/octet-stream\r\n"
        switch framing {
        case .announced(let length): head += "Content-Length: \(length)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .untilClose: break
        case .silent:
            while recv(connection, &buffer, buffer.count, 0) > 0 {}  // until the client closes
            return
        }
        guard (head + "\r\n").withCString({ send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) > 0 else { return }
        var chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
        if case .chunked = framing { chunk = Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8) }
        let total: Int = if case .announced(let length) = framing { min(length, limit) } else { limit }
        while sent < total {
            let count = send(connection, chunk, chunk.count, Int32(MSG_NOSIGNAL))
            guard count > 0 else { return }
            sentBytes.add(count, ordering: .releasing)
        }
    }
}
