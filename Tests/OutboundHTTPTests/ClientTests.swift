import Foundation
import JourneyTesting
import OutboundHTTP
import Testing

/// The client against receivers on raw sockets: what goes on the wire, the answer's framings,
/// the addresses it connects to, and its bounds on time and size.
@Suite struct ClientTests {
    static let loopback = IPAddress("127.0.0.1")!

    func client(timeout: TimeInterval = 10, connectTimeout: TimeInterval = 5, cap: Int = 64 << 10) -> OutboundHTTPClient {
        OutboundHTTPClient(configuration: .init(timeout: timeout, connectTimeout: connectTimeout, maxResponseBytes: cap))
    }

    /// `send` that returns its typed error instead of throwing.
    func outcome(
        _ client: OutboundHTTPClient, _ request: OutboundHTTPRequest,
        to addresses: [IPAddress] = [loopback]
    ) async -> Result<OutboundHTTPResponse, OutboundHTTPError> {
        do throws(OutboundHTTPError) {
            return .success(try await client.send(request, to: addresses))
        } catch {
            return .failure(error)
        }
    }

    @Test func theRequestGoesWholeWithHostAndLengthAndTheAnswerComesBack() async throws {
        let receiver = try ScriptedReceiver { $0.answer("HTTP/1.1 201 Created\r\nX-Id: 7\r\nContent-Length: 4\r\n\r\ndone") }
        defer { receiver.stop() }
        // A body larger than the socket buffers: written in many non-blocking pieces.
        let body = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let request = OutboundHTTPRequest(
            method: "POST", url: receiver.url("/hook?x=1"),
            headers: [.init("Content-Type", "application/json"), .init("webhook-id", "msg_1")],
            body: body)
        let answer = try await client().send(request, to: [Self.loopback])
        #expect(answer.status == 201 && answer.reason == "Created" && answer.header("x-id") == "7")
        #expect(String(decoding: answer.body, as: UTF8.self) == "done" && !answer.bodyTruncated)
        #expect(answer.address == Self.loopback)
        let received = try #require(receiver.requests.first)
        #expect(received.lines.first == "POST /hook?x=1 HTTP/1.1")
        #expect(received.header("Host") == "127.0.0.1:\(receiver.port)")
        #expect(received.header("Content-Length") == "\(body.count)")
        #expect(received.header("Connection") == nil, "HTTP/1.1 keeps the connection open")
        #expect(received.header("webhook-id") == "msg_1")
        #expect(received.body == Array(body))
    }

    @Test func aChunkedAnswerIsDecoded() async throws {
        let receiver = try ScriptedReceiver {
            $0.answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4;x=y\r\ndefg\r\n0\r\n\r\n")
        }
        defer { receiver.stop() }
        let answer = try await client().send(OutboundHTTPRequest(url: receiver.url()), to: [Self.loopback])
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "abcdefg")
    }

    @Test func anAnswerEndingWithTheConnectionIsReadToItsEnd() async throws {
        let receiver = try ScriptedReceiver { $0.answer("HTTP/1.0 200 OK\r\n\r\nto the end") }
        defer { receiver.stop() }
        let answer = try await client().send(OutboundHTTPRequest(url: receiver.url()), to: [Self.loopback])
        #expect(String(decoding: answer.body, as: UTF8.self) == "to the end")
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        let receiver = try ScriptedReceiver {
            $0.answer("HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/elsewhere\r\nContent-Length: 0\r\n\r\n")
        }
        defer { receiver.stop() }
        let answer = try await client().send(OutboundHTTPRequest(method: "POST", url: receiver.url()), to: [Self.loopback])
        #expect(answer.status == 307 && answer.header("Location") == "http://127.0.0.1:1/elsewhere")
        #expect(receiver.connections == 1)
    }

    @Test func aRefusedAddressFallsThroughToTheNextOne() async throws {
        let receiver = try ScriptedReceiver { $0.answer("HTTP/1.1 204 No Content\r\n\r\n") }
        defer { receiver.stop() }
        // Nothing listens on 127.0.0.3 at the receiver's port.
        let answer = try await client().send(
            OutboundHTTPRequest(url: receiver.url(host: "hooks.test")),
            to: [IPAddress("127.0.0.3")!, Self.loopback])
        #expect(answer.status == 204 && answer.address == Self.loopback)
        #expect(receiver.requests.first?.header("Host") == "hooks.test:\(receiver.port)", "the name stays the URL's")
    }

    @Test func whenNoAddressAcceptsEachOnesReasonIsGiven() async throws {
        let receiver = try ScriptedReceiver(accepting: false)  // on 127.0.0.1 only
        let port = receiver.port
        let request = OutboundHTTPRequest(url: URL(string: "http://hooks.test:\(port)/hook")!)
        let result = await outcome(client(), request, to: [IPAddress("127.0.0.3")!, IPAddress("127.0.0.4")!])
        guard case .failure(let error) = result else { Issue.record("answered: \(result)"); return }
        #expect(error.code == .connectFailed)
        #expect(
            error.message
                == "could not connect to hooks.test (127.0.0.3:\(port) Connection refused; 127.0.0.4:\(port) Connection refused)")
        #expect(receiver.connections == 0)
    }

    @Test func anAddressThatNeverAcceptsTimesOutAndTheNextOneIsTried() async throws {
        let receiver = try ScriptedReceiver { $0.answer("HTTP/1.1 204 No Content\r\n\r\n") }
        defer { receiver.stop() }
        // A listener that never accepts, its queue full after one connection: later SYNs are dropped.
        let silent = try ScriptedReceiver(host: "127.0.0.5", port: receiver.port, backlog: 0, accepting: false)
        let filler = try FillerConnection(to: "127.0.0.5", port: receiver.port)
        let answer = try await client(connectTimeout: 0.3).send(
            OutboundHTTPRequest(url: receiver.url()),
            to: [IPAddress("127.0.0.5")!, Self.loopback])
        #expect(answer.status == 204 && answer.address == Self.loopback)
        filler.close()
        silent.stop()
    }

    @Test func aReceiverThatSendsSlowlyHitsTheWholeRequestDeadline() async throws {
        // A byte every 50 ms: never idle long, never done.
        let receiver = try ScriptedReceiver { connection in
            guard connection.readRequest() != nil else { return }
            _ = connection.send(Array("HTTP/1.1 200 OK\r\n".utf8))
            connection.drip(UInt8(ascii: "X"), every: 50)
        }
        defer { receiver.stop() }
        let result = await outcome(client(timeout: 0.5), OutboundHTTPRequest(url: receiver.url()))
        guard case .failure(let error) = result else { Issue.record("answered: \(result)"); return }
        #expect(
            error == OutboundHTTPError(.timedOut, "no complete answer from 127.0.0.1 (127.0.0.1:\(receiver.port)) within 0.5 s"))
        try await waitUntil("the receiver saw the connection closed") { receiver.closedByClient == 1 }
    }

    @Test func anEndlessAnswerIsCutAtTheCapAndTheConnectionClosed() async throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
        let receiver = try ScriptedReceiver { connection in
            guard connection.readRequest() != nil else { return }
            connection.limitSendBuffer(64 << 10)
            _ = connection.send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            let framed = Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8)
            for _ in 0..<4096 where connection.send(framed) {}  // 256 MiB at most
        }
        defer { receiver.stop() }
        let answer = try await client(cap: 64 << 10).send(OutboundHTTPRequest(url: receiver.url()), to: [Self.loopback])
        #expect(answer.status == 200 && answer.bodyTruncated && answer.body.count == 64 << 10)
        try await waitUntil("the receiver stopped sending") { receiver.finished == 1 }
        #expect(receiver.closedByClient == 1)
        #expect(receiver.sent < 8 << 20, "the receiver sent \(receiver.sent) bytes after the cap")
    }

    @Test func anAnnouncedBodyOverTheCapIsNotReadAtAll() async throws {
        let receiver = try ScriptedReceiver { connection in
            guard connection.readRequest() != nil else { return }
            connection.limitSendBuffer(64 << 10)
            _ = connection.send(Array("HTTP/1.1 503 Busy\r\nRetry-After: 120\r\nContent-Length: 1073741824\r\n\r\n".utf8))
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
            for _ in 0..<4096 where connection.send(chunk) {}
        }
        defer { receiver.stop() }
        let answer = try await client(cap: 64 << 10).send(OutboundHTTPRequest(url: receiver.url()), to: [Self.loopback])
        #expect(answer.status == 503 && answer.header("Retry-After") == "120" && answer.bodyTruncated && answer.body.isEmpty)
        try await waitUntil("the receiver stopped sending") { receiver.finished == 1 }
        #expect(receiver.sent < 8 << 20, "the receiver sent \(receiver.sent) bytes")
    }

    @Test func cancellingTheCallerClosesTheConnection() async throws {
        let receiver = try ScriptedReceiver { connection in
            guard connection.readRequest() != nil else { return }
            _ = connection.waitForClientClose()
        }
        defer { receiver.stop() }
        let client = client(timeout: 30)
        let call = Task { await outcome(client, OutboundHTTPRequest(url: receiver.url())) }
        try await waitUntil("the request arrived") { receiver.requests.count == 1 }
        call.cancel()
        let result = await call.value
        guard case .failure(let error) = result else { Issue.record("answered: \(result)"); return }
        #expect(error.code == .cancelled)
        try await waitUntil("the receiver saw the connection closed") { receiver.closedByClient == 1 }
    }

    @Test func aRequestThatCannotBeSentIsRefusedBeforeConnecting() async throws {
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        let cases: [(OutboundHTTPRequest, String)] = [
            (
                OutboundHTTPRequest(url: receiver.url(), headers: [.init("X-Evil", "a\r\nInjected: yes")]),
                "header X-Evil holds a control character"
            ),
            (OutboundHTTPRequest(url: receiver.url(), headers: [.init("Host", "elsewhere")]), "header Host is set by the client"),
            (OutboundHTTPRequest(url: URL(string: "ftp://127.0.0.1/x")!), "only http and https URLs are sent"),
            (OutboundHTTPRequest(method: "GET X", url: receiver.url()), "the method is not an HTTP token"),
        ]
        for (request, message) in cases {
            let result = await outcome(client(), request)
            guard case .failure(let error) = result else { Issue.record("answered: \(result)"); continue }
            #expect(error == OutboundHTTPError(.invalidRequest, message))
        }
        #expect(receiver.connections == 0)
    }

    @Test func anOversizedHeadIsRefused() async throws {
        let receiver = try ScriptedReceiver {
            $0.answer("HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "p", count: 40 << 10) + "\r\n\r\n")
        }
        defer { receiver.stop() }
        let result = await outcome(client(), OutboundHTTPRequest(url: receiver.url()))
        guard case .failure(let error) = result else { Issue.record("answered: \(result)"); return }
        #expect(error == OutboundHTTPError(.malformedResponse, "the answer's head is over 32768 bytes"))
    }
}
