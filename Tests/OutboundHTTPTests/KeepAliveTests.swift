import Foundation
import JourneyTesting
import OutboundHTTP
import Synchronization
import Testing

/// Keep-alive: which answers leave a connection for the next request, the one retry when a
/// reused connection turns out closed, and cancellation on a reused connection.
@Suite struct KeepAliveTests {
    static let loopback = IPAddress("127.0.0.1")!

    func client(cap: Int = 64 << 10, perHost: Int = 8) -> OutboundHTTPClient {
        OutboundHTTPClient(configuration: .init(timeout: 10, maxResponseBytes: cap, maxIdleConnectionsPerHost: perHost))
    }

    func send(_ client: OutboundHTTPClient, _ receiver: ScriptedReceiver, _ path: String = "/hook")
        async throws(OutboundHTTPError)
        -> OutboundHTTPResponse
    {
        try await client.send(
            OutboundHTTPRequest(method: "POST", url: receiver.url(path), body: Data("{}".utf8)), to: [Self.loopback])
    }

    @Test func sequentialRequestsShareOneConnectionWhateverTheFraming() async throws {
        let answers = Mutex([
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n",
            "HTTP/1.1 204 No Content\r\n\r\n",
            "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 3\r\n\r\nold",
            "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlast",
        ])
        let receiver = try ScriptedReceiver { connection in
            while connection.readRequest() != nil {
                guard let answer = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }),
                    connection.send(Array(answer.utf8))
                else { return }
            }
        }
        defer { receiver.stop() }
        let client = client()
        var bodies: [String] = []
        for index in 0..<5 {
            bodies.append(String(decoding: try await send(client, receiver, "/\(index)").body, as: UTF8.self))
            #expect(client.idleConnections == 1)
        }
        #expect(bodies == ["ok", "abc", "", "old", "last"])
        #expect(receiver.connections == 1)
        #expect(receiver.requests.map { $0.lines.first } == (0..<5).map { "POST /\($0) HTTP/1.1" })
        #expect(receiver.requests.allSatisfy { $0.header("Connection") == nil })
    }

    @Test func anAnswerThatEndsTheConnectionLeavesNothingToReuse() async throws {
        let answers = [
            "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\n\r\nok",  // no length: the body ends with the connection
        ]
        for answer in answers {
            let receiver = try ScriptedReceiver { $0.answer(answer) }
            defer { receiver.stop() }
            let client = client()
            for _ in 0..<2 {
                let response = try await send(client, receiver)
                #expect(String(decoding: response.body, as: UTF8.self) == "ok", "\(answer)")
                #expect(client.idleConnections == 0, "\(answer)")
            }
            #expect(receiver.connections == 2, "\(answer)")
        }
    }

    @Test func aBodyNotReadWholeClosesTheConnection() async throws {
        let heads = [
            "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n",  // announced over the cap: not read
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n" + String(repeating: "x", count: 0x2000),
        ]
        for head in heads {
            let receiver = try ScriptedReceiver { connection in
                guard connection.readRequest() != nil, connection.send(Array(head.utf8)) else { return }
                _ = connection.waitForClientClose()
            }
            defer { receiver.stop() }
            let client = client(cap: 4096)
            let response = try await send(client, receiver)
            #expect(response.bodyTruncated && client.idleConnections == 0)
            try await waitUntil("the receiver saw the connection closed") { receiver.closedByClient == 1 }
        }
    }

    @Test func aReusedConnectionClosedBeforeAnyAnswerIsRetriedOnceOnAFreshOne() async throws {
        let accepted = Atomic<Int>(0)
        let receiver = try ScriptedReceiver { connection in
            if accepted.add(1, ordering: .relaxed).newValue == 1 {
                // Answers the first request, then closes as the second arrives (its keep-alive
                // timeout racing the request).
                connection.answer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
                connection.readRequest()
            } else {
                connection.answerEach("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh")
            }
        }
        defer { receiver.stop() }
        let client = client()
        #expect(String(decoding: try await send(client, receiver, "/1").body, as: UTF8.self) == "first")
        #expect(String(decoding: try await send(client, receiver, "/2").body, as: UTF8.self) == "fresh")
        #expect(receiver.connections == 2)
        #expect(receiver.requests.map { $0.lines.first } == ["POST /1 HTTP/1.1", "POST /2 HTTP/1.1", "POST /2 HTTP/1.1"])
        #expect(client.idleConnections == 1)
    }

    @Test func theRetryIsOnlyOnceAndAFreshConnectionIsNeverRetried() async throws {
        let accepted = Atomic<Int>(0)
        let receiver = try ScriptedReceiver { connection in
            if accepted.add(1, ordering: .relaxed).newValue == 1 {
                connection.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
            connection.readRequest()  // then closes without a byte of an answer
        }
        defer { receiver.stop() }
        let client = client()
        _ = try await send(client, receiver, "/1")
        do throws(OutboundHTTPError) {
            _ = try await send(client, receiver, "/2")
            Issue.record("answered")
        } catch {
            #expect(error.code == .connectionLost)
        }
        #expect(receiver.connections == 2, "the reused connection, then one fresh one")
        #expect(receiver.requests.count == 3)
        do throws(OutboundHTTPError) {
            _ = try await send(client, receiver, "/3")
            Issue.record("answered")
        } catch {
            #expect(error.code == .connectionLost)
        }
        #expect(receiver.connections == 3 && receiver.requests.count == 4, "a fresh connection's failure is not retried")
    }

    @Test func anIdleConnectionTheServerClosedIsNotUsed() async throws {
        let receiver = try ScriptedReceiver { $0.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { receiver.stop() }
        let client = client()
        _ = try await send(client, receiver)
        #expect(client.idleConnections == 1)
        try await waitUntil("the server closed the idle connection") { receiver.finished == 1 }
        #expect(String(decoding: try await send(client, receiver).body, as: UTF8.self) == "ok")
        #expect(receiver.connections == 2)
    }

    @Test func cancellingARequestOnAReusedConnectionClosesIt() async throws {
        let receiver = try ScriptedReceiver { connection in
            connection.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            guard connection.readRequest() != nil else { return }
            _ = connection.waitForClientClose()
        }
        defer { receiver.stop() }
        let client = client()
        _ = try await send(client, receiver)
        let call = Task { () async -> OutboundHTTPError? in
            do throws(OutboundHTTPError) {
                _ = try await send(client, receiver)
                return nil
            } catch {
                return error
            }
        }
        try await waitUntil("the second request arrived") { receiver.requests.count == 2 }
        call.cancel()
        #expect(await call.value?.code == .cancelled)
        try await waitUntil("the receiver saw the connection closed") { receiver.closedByClient == 1 }
        #expect(client.idleConnections == 0 && receiver.connections == 1)
    }

    @Test func noIdleConnectionsMeansConnectionClose() async throws {
        let receiver = try ScriptedReceiver { $0.answerEach("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { receiver.stop() }
        let client = client(perHost: 0)
        _ = try await send(client, receiver)
        #expect(receiver.requests.first?.header("Connection") == "close")
        #expect(client.idleConnections == 0)
        try await waitUntil("the receiver saw the connection closed") { receiver.closedByClient == 1 }
    }
}
