import Foundation

/// A blocking HTTP/1.1 connection to 127.0.0.1, reopened after any failure.
struct LoopbackConnection {
    struct Failure: Error { let what: String }

    let port: UInt16
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []

    init(port: UInt16) { self.port = port }

    mutating func close() {
        if socket >= 0 { _ = Foundation.close(socket) }
        socket = -1
        buffer = []
    }

    /// Sends the request and reads the whole answer; returns its status.
    mutating func exchange(_ request: EndToEndBenchmark.LoadClient.Request) throws -> Int {
        do {
            if socket < 0 { try open() }
            try write(Self.encode(request, port: port))
            let (status, keepAlive) = try readResponse()
            if !keepAlive { close() }
            return status
        } catch {
            close()
            throw error
        }
    }

    /// The request's bytes: head and body.
    static func encode(_ request: EndToEndBenchmark.LoadClient.Request, port: UInt16) -> [UInt8] {
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(request.body.count)\r\n\r\n"
        return Array(head.utf8) + request.body
    }

    private mutating func open() throws {
        let fd = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(what: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { _ = Foundation.close(fd); throw Failure(what: "connect") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        socket = fd
        buffer = []
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(what: "send") }
            offset += sent
        }
    }

    /// Reads more bytes into `buffer`; throws at end of stream.
    private mutating func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(what: "recv") }
        buffer.append(contentsOf: chunk[0..<count])
    }

    /// The status and whether the connection stays open; the body (Content-Length) is consumed.
    private mutating func readResponse() throws -> (Int, Bool) {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.headEnd(buffer)
            if headEnd == nil { try fill() }
        }
        let end = headEnd!
        guard let head = String(bytes: buffer[0..<end], encoding: .utf8) else { throw Failure(what: "head") }
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw Failure(what: "status line") }
        var length = 0
        var keepAlive = true
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) ?? 0 }
            if name == "connection", value.lowercased() == "close" { keepAlive = false }
            if name == "transfer-encoding" { throw Failure(what: "chunked answers are not read") }
        }
        let total = end + 4 + length
        while buffer.count < total { try fill() }
        buffer.removeFirst(total)
        return (status, keepAlive)
    }

    /// The index of the blank line's `\r\n\r\n`, if the head is complete.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
