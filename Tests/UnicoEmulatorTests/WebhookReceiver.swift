import Foundation
import HTTPServer
import JourneyTesting
import Synchronization
import Testing

/// A tiny webhook endpoint on a free loopback port that records every request it gets.
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        var headers: HTTPHeaders
        var json: [String: String]
    }

    private final class Log: Sendable {
        let received = Mutex<[Received]>([])
        /// Status codes to answer, in order; 200 once they run out.
        let script: Mutex<[Int]>

        init(_ statuses: [Int]) { script = Mutex(statuses) }
    }

    private let log: Log
    let server: HTTPServer

    init(answering statuses: [Int] = []) {
        let log = Log(statuses)
        self.log = log
        var router = Router()
        router.post("/hooks/unico") { request in
            let object = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
            let json = object.compactMapValues { $0 as? String }
            log.received.withLock { $0.append(Received(headers: request.headers, json: json)) }
            let status = log.script.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
            return .empty(status: HTTPStatus(code: status))
        }
        server = HTTPServer(configuration: .init(port: 0), router: router, accessLog: AccessLogEntry.discard)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(server.port ?? 0)/hooks/unico")! }

    var requests: [Received] { log.received.withLock { $0 } }

    /// Waits until at least `count` requests arrived.
    func waitFor(_ count: Int) async throws -> [Received] {
        try await JourneyTesting.waitFor("\(count) webhook request(s)") {
            let current = requests
            return current.count >= count ? current : nil
        }
    }
}

/// Runs `body` with a started receiver and always stops it.
func withReceiver<T>(answering statuses: [Int] = [], _ body: (WebhookReceiver) async throws -> T) async throws -> T {
    let receiver = WebhookReceiver(answering: statuses)
    try receiver.server.start()
    do {
        let result = try await body(receiver)
        await receiver.server.shutdown()
        return result
    } catch {
        await receiver.server.shutdown()
        throw error
    }
}
