import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A receiver on 127.0.0.1 that answers one webhook with `status` and a body of `announced`
/// bytes, streamed 64 KiB at a time until the client goes away or `limit` bytes went out; it
/// counts what it managed to send.
final class StreamingReceiver: Sendable {
    let port: Int
    private let listener: Int32
    private let sentBytes = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)

    init(status: Int, announced: Int = 1 << 30, limit: Int = 256 << 20) throws {
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
        let thread = Thread { [self] in serve(status: status, announced: announced, limit: limit) }
        thread.start()
    }

    deinit { close(listener) }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Bytes of the body sent before the client cut the connection (or `limit`).
    var sent: Int { sentBytes.load(ordering: .acquiring) }

    /// Waits up to `timeout` for the answer to end; true when it did.
    func waitUntilFinished(timeout: Duration = .seconds(20)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !finished.load(ordering: .acquiring), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return finished.load(ordering: .acquiring)
    }

    private func serve(status: Int, announced: Int, limit: Int) {
        defer { finished.store(true, ordering: .releasing) }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The request: its head, then Content-Length bytes of body.
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = request.firstRange(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if request.count - end.upperBound >= length { break }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request.append(contentsOf: buffer[0..<count])
        }
        let head = "HTTP/1.1 \(status) X\r\nContent-Type: application/octet-stream\r\nContent-Length: \(announced)\r\n\r\n"
        guard head.withCString({ send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) > 0 else { return }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
        while sent < min(announced, limit) {
            let count = send(connection, chunk, chunk.count, Int32(MSG_NOSIGNAL))
            guard count > 0 else { return }
            sentBytes.add(count, ordering: .releasing)
        }
    }
}
