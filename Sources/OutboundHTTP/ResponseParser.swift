import Foundation

/// Reads an HTTP/1.x answer from bytes as they arrive (RFC 9112): the status line and header
/// fields (at most `maxHeadBytes`), then the body framed by `Content-Length`, chunks or the
/// connection's end, keeping at most `maxBodyBytes` of it.
///
/// A value with no I/O: the connection feeds it (``consume(_:)``, ``finish()``) and stops reading
/// once it says ``Step/complete``. An announced body over the cap completes at once, none of it
/// read; a streamed one completes as soon as it passes the cap. Interim 1xx answers are skipped.
struct ResponseParser {
    /// What the caller does next.
    enum Step: Equatable {
        /// Read more bytes (or call ``finish()`` at the connection's end).
        case needMore
        /// The answer is complete (or cut at the cap): stop reading.
        case complete
    }

    struct Head: Equatable {
        var status: Int
        var reason: String
        var headers: [OutboundHTTPHeader]
        /// The server keeps the connection open after this answer (RFC 9112 §9.3): HTTP/1.1 without
        /// `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`.
        var persistent: Bool
    }

    private enum State: Equatable {
        case head
        case length(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case untilClose
        case complete
    }

    let maxHeadBytes: Int
    let maxBodyBytes: Int
    /// The request was `HEAD`: no body follows whatever the fields say.
    let bodyless: Bool

    private(set) var head: Head?
    private(set) var body: [UInt8] = []
    /// The body was longer than `maxBodyBytes` (announced or streamed).
    private(set) var truncated = false
    private var state = State.head
    /// The answer ended with the connection (no length, no chunks).
    private var endedByClose = false
    /// Bytes received and not yet consumed: a head or a line in progress.
    private var pending: [UInt8] = []
    /// Where in `pending` the search for the head's end goes on (a line start already scanned to).
    private var headResume = 0

    /// The longest chunk-size line accepted (extensions included).
    static let maxChunkLine = 4096

    init(maxHeadBytes: Int, maxBodyBytes: Int, bodyless: Bool = false) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.bodyless = bodyless
    }

    var isComplete: Bool { state == .complete }

    /// The connection can carry another request: the answer is complete by its own framing (not
    /// by the connection's end, not cut at the cap), the server keeps the connection open, and
    /// nothing followed the answer.
    var leavesConnectionReusable: Bool {
        state == .complete && !endedByClose && !truncated && pending.isEmpty && head?.persistent == true
    }

    /// Takes the next bytes received; `malformed_response` when they are not HTTP/1.x.
    mutating func consume(_ bytes: some Collection<UInt8>) throws(OutboundHTTPError) -> Step {
        guard state != .complete else { return .complete }
        pending.append(contentsOf: bytes)
        var offset = 0
        defer { pending.removeFirst(offset) }
        while state != .complete {
            let available = pending.count - offset
            switch state {
            case .head:
                // Blank lines before a status line (a stray CRLF after an interim answer) are skipped.
                while offset < pending.count, pending[offset] == UInt8(ascii: "\r") || pending[offset] == UInt8(ascii: "\n") {
                    offset += 1
                }
                let scan = Self.endOfHead(pending, head: offset, from: max(offset, headResume))
                guard let end = scan.end else {
                    guard available <= maxHeadBytes else {
                        throw OutboundHTTPError(.malformedResponse, "the answer's head is over \(maxHeadBytes) bytes")
                    }
                    headResume = scan.resume - offset  // the defer drops `offset` bytes
                    return .needMore
                }
                headResume = 0
                guard end - offset <= maxHeadBytes else {
                    throw OutboundHTTPError(.malformedResponse, "the answer's head is over \(maxHeadBytes) bytes")
                }
                let parsed = try Self.parseHead(pending[offset..<end])
                offset = end
                if (100..<200).contains(parsed.status) {
                    guard parsed.status != 101 else {
                        throw OutboundHTTPError(.malformedResponse, "the answer switched protocols (101)")
                    }
                    continue
                }
                head = parsed
                state = try framing(of: parsed)
            case .length(let remaining):
                guard available > 0 else { return .needMore }
                let count = min(remaining, available)
                append(pending[offset..<offset + count])
                offset += count
                if state != .complete { state = remaining == count ? .complete : .length(remaining: remaining - count) }
            case .chunkSize:
                guard let line = try Self.line(in: pending, from: offset, limit: Self.maxChunkLine) else { return .needMore }
                offset = line.next
                let size = try Self.chunkSize(pending[line.range])
                state = size == 0 ? .trailers(bytes: 0) : .chunkData(remaining: size)
            case .chunkData(let remaining):
                guard available > 0 else { return .needMore }
                let count = min(remaining, available)
                append(pending[offset..<offset + count])
                offset += count
                if state != .complete { state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count) }
            case .chunkDataEnd:
                guard let line = try Self.line(in: pending, from: offset, limit: 2) else { return .needMore }
                guard line.range.isEmpty else {
                    throw OutboundHTTPError(.malformedResponse, "a chunk of the answer is longer than its size")
                }
                offset = line.next
                state = .chunkSize
            case .trailers(let bytes):
                let room = max(maxHeadBytes - bytes, 0)
                guard let line = try Self.line(in: pending, from: offset, limit: room) else { return .needMore }
                offset = line.next
                state = line.range.isEmpty ? .complete : .trailers(bytes: bytes + line.range.count + 2)
            case .untilClose:
                guard available > 0 else { return .needMore }
                append(pending[offset...])
                offset = pending.count
            case .complete:
                break
            }
        }
        return .complete
    }

    /// The connection ended; `connection_lost` when the answer was not complete by then.
    mutating func finish() throws(OutboundHTTPError) -> Step {
        switch state {
        case .complete:
            return .complete
        case .untilClose:
            state = .complete
            endedByClose = true
            return .complete
        case .head:
            throw OutboundHTTPError(
                .connectionLost,
                pending.isEmpty && head == nil
                    ? "the connection closed before an answer" : "the connection closed in the middle of the answer's head")
        default:
            throw OutboundHTTPError(.connectionLost, "the connection closed before the answer's body ended")
        }
    }

    /// Keeps `bytes` of the body up to the cap; past it, keeps what fits and completes.
    private mutating func append(_ bytes: ArraySlice<UInt8>) {
        let room = maxBodyBytes - body.count
        if bytes.count > room {
            body.append(contentsOf: bytes.prefix(room))
            truncated = true
            state = .complete
        } else {
            body.append(contentsOf: bytes)
        }
    }

    /// How the body of `head` is framed (RFC 9112 §6.3).
    private mutating func framing(of head: Head) throws(OutboundHTTPError) -> State {
        if bodyless || head.status == 204 || head.status == 304 { return .complete }
        let codings = head.headers.all("Transfer-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        if let last = codings.last {
            return last == "chunked" ? .chunkSize : .untilClose
        }
        let lengths = head.headers.all("Content-Length")
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lengths.first else { return .untilClose }
        guard let length = Int(first), length >= 0, first.utf8.allSatisfy({ (48...57).contains($0) }),
            lengths.allSatisfy({ $0 == first })
        else {
            throw OutboundHTTPError(.malformedResponse, "the answer's Content-Length is invalid")
        }
        if length == 0 { return .complete }
        if length > maxBodyBytes {
            truncated = true
            return .complete
        }
        return .length(remaining: length)
    }

    /// The index just past the blank line ending the head that starts at `head`, scanning from
    /// `start` (a line start: where the last scan stopped); nil when not there yet, with the line
    /// start to resume from.
    static func endOfHead(_ bytes: [UInt8], head: Int, from start: Int) -> (end: Int?, resume: Int) {
        var index = start
        var lineStart = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                let length = index - lineStart
                if lineStart > head, length == 0 || (length == 1 && bytes[lineStart] == UInt8(ascii: "\r")) {
                    return (index + 1, lineStart)
                }
                lineStart = index + 1
            }
            index += 1
        }
        return (nil, lineStart)
    }

    /// A line ending in LF (its CR dropped) starting at `start`: its range and the index after
    /// it; nil when incomplete; `malformed_response` when longer than `limit`.
    static func line(in bytes: [UInt8], from start: Int, limit: Int) throws(OutboundHTTPError) -> (range: Range<Int>, next: Int)?
    {
        let end = min(bytes.count, start + limit + 2)
        guard let newline = bytes[start..<end].firstIndex(of: UInt8(ascii: "\n")) else {
            guard bytes.count - start <= limit + 1 else {
                throw OutboundHTTPError(.malformedResponse, "a line of the answer's chunked body is too long")
            }
            return nil
        }
        let stop = newline > start && bytes[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
        return (start..<stop, newline + 1)
    }

    /// The size of a chunk-size line (hex digits, then optional extensions).
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(OutboundHTTPError) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != 0x09 }
        guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), size >= 0,
            digits.allSatisfy({ (48...57).contains($0) || (65...70).contains($0 & 0xdf) })
        else {
            throw OutboundHTTPError(.malformedResponse, "a chunk size of the answer is not hexadecimal")
        }
        return size
    }

    /// The status line and fields of one head (its final blank line included).
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(OutboundHTTPError) -> Head {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw OutboundHTTPError(.malformedResponse, "the answer has no status line") }
        let (minorVersion, status, reason) = try parseStatusLine(statusLine)
        var headers: [OutboundHTTPHeader] = []
        for line in lines.dropFirst() {
            if line.first == UInt8(ascii: " ") || line.first == 0x09 {
                guard !headers.isEmpty else {
                    throw OutboundHTTPError(.malformedResponse, "the answer's first header line is a continuation")
                }
                let more = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                headers[headers.count - 1].value += " " + more
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(OutboundHTTPRequest.isTokenByte)
            else {
                throw OutboundHTTPError(.malformedResponse, "a header line of the answer is not name: value")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            headers.append(OutboundHTTPHeader(name, value))
        }
        let options = headers.all("Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let persistent = !options.contains("close") && (minorVersion >= 1 || options.contains("keep-alive"))
        return Head(status: status, reason: reason, headers: headers, persistent: persistent)
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`: x, the status and the reason.
    static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(OutboundHTTPError) -> (Int, Int, String) {
        let text = Array(line)
        let prefix = Array("HTTP/1.".utf8)
        guard text.count >= 12, text.starts(with: prefix), (48...57).contains(text[7]), text[8] == UInt8(ascii: " "),
            text[9...11].allSatisfy({ (48...57).contains($0) }), text.count == 12 || text[12] == UInt8(ascii: " ")
        else {
            throw OutboundHTTPError(.malformedResponse, "the answer is not HTTP/1.x")
        }
        let status = Int(String(decoding: text[9...11], as: UTF8.self))!
        guard status >= 100 else { throw OutboundHTTPError(.malformedResponse, "the answer's status \(status) is invalid") }
        let reason = text.count > 13 ? String(decoding: text[13...], as: UTF8.self) : ""
        return (Int(text[7] - 48), status, reason)
    }
}
