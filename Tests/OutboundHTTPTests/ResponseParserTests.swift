@testable import OutboundHTTP
import Testing

/// The answer's framing, read from bytes however they are split.
@Suite struct ResponseParserTests {
    /// Feeds `text` in pieces of `piece` bytes, then the connection's end if still needed.
    func parse(
        _ text: String, piece: Int = 1, cap: Int = 1 << 20, head: Int = 32 << 10,
        bodyless: Bool = false
    ) throws -> ResponseParser {
        var parser = ResponseParser(maxHeadBytes: head, maxBodyBytes: cap, bodyless: bodyless)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + piece, bytes.count)
            if try parser.consume(bytes[offset..<end]) == .complete { return parser }
            offset = end
        }
        _ = try parser.finish()
        return parser
    }

    func body(_ parser: ResponseParser) -> String { String(decoding: parser.body, as: UTF8.self) }

    @Test(arguments: [1, 7, 4096]) func aContentLengthBodyEndsAtItsLength(piece: Int) throws {
        let parser = try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhelloTRAILING", piece: piece)
        #expect(
            parser.head
                == .init(
                    status: 200, reason: "OK", headers: [.init("Content-Length", "5"), .init("X-A", "1")], persistent: true))
        #expect(body(parser) == "hello" && !parser.truncated && parser.isComplete)
        if piece == 4096 { #expect(!parser.leavesConnectionReusable, "bytes followed the answer in the same read") }
    }

    @Test func onlyAWholeAnswerOnAConnectionTheServerKeepsLeavesItReusable() throws {
        let cases: [(String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", true),
            ("HTTP/1.1 204 No Content\r\n\r\n", true),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", true),
            ("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false),
            ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", false),
            ("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: Close\r\nContent-Length: 2\r\n\r\nok", false),
            ("HTTP/1.1 200 OK\r\n\r\nuntil the end", false),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n", false),  // over the cap: not read
        ]
        for (text, reusable) in cases {
            let parser = try parse(text, piece: 4096, cap: 1024)
            #expect(parser.leavesConnectionReusable == reusable, "\(text)")
        }
    }

    @Test(arguments: [1, 5, 4096]) func aChunkedBodyIsDecodedWithExtensionsAndTrailers(piece: Int) throws {
        let text =
            "HTTP/1.1 202 Accepted\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1A\r\n abcdefghijklmnopqrstuvwxy\r\n0\r\nX-Trailer: t\r\n\r\n"
        let parser = try parse(text, piece: piece)
        #expect(parser.head?.status == 202)
        #expect(body(parser) == "hello abcdefghijklmnopqrstuvwxy")
    }

    @Test func aBodyWithoutLengthEndsWithTheConnection() throws {
        let parser = try parse("HTTP/1.0 200 OK\r\n\r\nuntil the end", piece: 3)
        #expect(body(parser) == "until the end" && parser.isComplete)
    }

    @Test func interimAnswersAreSkippedAndBareLineFeedsAccepted() throws {
        let parser = try parse(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\nLink: </a>\n\nHTTP/1.1 500 Boom\nContent-Length: 2\n\nno")
        #expect(parser.head?.status == 500 && parser.head?.reason == "Boom" && body(parser) == "no")
    }

    @Test func foldedLinesAreJoinedAndAMissingReasonIsEmpty() throws {
        let parser = try parse("HTTP/1.1 204\r\nX-Long: one\r\n  two\r\n\r\n")
        #expect(parser.head == .init(status: 204, reason: "", headers: [.init("X-Long", "one two")], persistent: true))
    }

    @Test func noBodyFollows204Or304OrAHeadRequest() throws {
        for text in ["HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", "HTTP/1.1 304 Not Modified\r\n\r\n"] {
            var parser = ResponseParser(maxHeadBytes: 1024, maxBodyBytes: 1024)
            #expect(try parser.consume(Array(text.utf8)) == .complete && parser.body.isEmpty)
        }
        var parser = ResponseParser(maxHeadBytes: 1024, maxBodyBytes: 1024, bodyless: true)
        #expect(try parser.consume(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)) == .complete)
    }

    @Test func anAnnouncedBodyOverTheCapCompletesAtOnceUnread() throws {
        var parser = ResponseParser(maxHeadBytes: 1024, maxBodyBytes: 10)
        #expect(try parser.consume(Array("HTTP/1.1 503 Busy\r\nContent-Length: 1073741824\r\n\r\nxx".utf8)) == .complete)
        #expect(parser.head?.status == 503 && parser.truncated && parser.body.isEmpty)
    }

    @Test func aStreamedBodyIsCutAtTheCap() throws {
        let chunk = "10\r\n" + String(repeating: "x", count: 16) + "\r\n"
        var parser = ResponseParser(maxHeadBytes: 1024, maxBodyBytes: 40)
        #expect(
            try parser.consume(Array(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk).utf8)) == .needMore
        )
        #expect(try parser.consume(Array((chunk + chunk).utf8)) == .complete)
        #expect(parser.truncated && parser.body.count == 40)

        var endless = ResponseParser(maxHeadBytes: 1024, maxBodyBytes: 40)
        #expect(try endless.consume(Array("HTTP/1.1 200 OK\r\n\r\n".utf8)) == .needMore)
        #expect(try endless.consume([UInt8](repeating: 120, count: 41)) == .complete)
        #expect(endless.truncated && endless.body.count == 40)
    }

    @Test func malformedAnswersAreRefusedNamingWhat() {
        let cases: [(String, String)] = [
            ("SSH-2.0-OpenSSH\r\n\r\n", "not HTTP/1.x"),
            ("HTTP/2 200\r\n\r\n", "not HTTP/1.x"),
            ("HTTP/1.1 20 OK\r\n\r\n", "not HTTP/1.x"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", "Content-Length is invalid"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length is invalid"),
            ("HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n", "not name: value"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "not hexadecimal"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "longer than its size"),
            ("HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched protocols"),
        ]
        for (text, phrase) in cases {
            #expect {
                _ = try parse(text, piece: 4096)
            } throws: { error in
                let error = try #require(error as? OutboundHTTPError)
                return error.code == .malformedResponse && error.message.contains(phrase)
            }
        }
    }

    @Test func aHeadOverTheLimitIsRefusedBeforeItEnds() {
        var parser = ResponseParser(maxHeadBytes: 64, maxBodyBytes: 1024)
        #expect(throws: OutboundHTTPError(.malformedResponse, "the answer's head is over 64 bytes")) {
            _ = try parser.consume(Array(("HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "p", count: 100)).utf8))
        }
    }

    @Test func anAnswerCutShortIsAConnectionLoss() {
        let cases: [(String, String)] = [
            ("", "closed before an answer"),
            ("HTTP/1.1 200 OK\r\nContent-", "in the middle of the answer's head"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "before the answer's body ended"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "before the answer's body ended"),
        ]
        for (text, phrase) in cases {
            #expect {
                _ = try parse(text, piece: 4096)
            } throws: { error in
                let error = try #require(error as? OutboundHTTPError)
                return error.code == .connectionLost && error.message.contains(phrase)
            }
        }
    }
}
