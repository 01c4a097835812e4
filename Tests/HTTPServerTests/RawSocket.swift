import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1, used from a dedicated thread so tests never block
/// the cooperative pool.
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    /// Connects with receive and send timeouts of `timeout`.
    init(port: Int, timeout: Duration = .seconds(5)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError(description: "socket failed") }
        var interval = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(fd)
            throw RawHTTPError(description: "connect failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: some Collection<UInt8>) throws {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let sent = data[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw RawHTTPError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads until one whole response has arrived (by Content-Length) or the peer closes.
    func readResponse() throws -> RawResponse {
        var buffer = Data()
        while true {
            if let response = try Self.parse(buffer, complete: false) { return response }
            let chunk = try receive()
            if chunk.isEmpty {
                guard let response = try Self.parse(buffer, complete: true) else {
                    throw RawHTTPError(description: "connection closed before a response (\(buffer.count) bytes)")
                }
                return response
            }
            buffer.append(chunk)
        }
    }

    /// One `recv`; empty when the peer closed. Throws on timeout or reset.
    func receive() throws -> Data {
        var bytes = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &bytes, bytes.count, 0)
        if count < 0 { throw RawHTTPError(description: "recv failed: errno \(errno)") }
        return Data(bytes[0..<count])
    }

    /// Waits up to the receive timeout for the peer to close; true when it closed or reset.
    func waitForClose() -> Bool {
        while true {
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Waits up to `timeout` for the peer to close; false when it is still open then. Data that
    /// arrives meanwhile is read and dropped.
    func closed(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&entry, 1, milliseconds) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &bytes, bytes.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return true }
        }
        return false
    }

    private static func parse(_ data: Data, complete: Bool) throws -> RawResponse? {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawHTTPError(description: "bad status line: \(head)")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let body = data[end.upperBound...]
        let response = RawResponse(status: status, headers: headers, body: Data(body))
        if let length = response.header("Content-Length").flatMap(Int.init) {
            guard body.count >= length else { return nil }
            return RawResponse(status: status, headers: headers, body: Data(body.prefix(length)))
        }
        return complete ? response : nil
    }
}
