import Foundation
import HTTPServer
import JourneyTesting
import OutboundWebhooks
import Synchronization

/// A webhook receiver on 127.0.0.1 that verifies signatures and answers from a script.
final class Receiver: Sendable {
    struct Received: Sendable {
        var messageID: String
        var body: Data
        var verified: Bool
        var userAgent: String?
        var contentType: String?
    }

    private struct State {
        var received: [Received] = []
        var script: [HTTPResponse] = []
    }

    private let state = Mutex(State())
    private let verifier: StandardWebhookVerifier
    private let clock: TestClock
    private let server: Mutex<HTTPServer?> = Mutex(nil)

    init(secret: WebhookSecret, clock: TestClock) {
        verifier = StandardWebhookVerifier(secret: secret)
        self.clock = clock
    }

    /// Starts listening on `host` (an IPv4 literal) and `port` (0: a free one); returns the endpoint URL.
    func start(host: String = "127.0.0.1", port: Int = 0) throws -> String {
        var router = Router()
        router.post("/hook") { [self] request in handle(request) }
        let server = HTTPServer(configuration: .init(host: host, port: port), router: router, accessLog: { _ in })
        try server.start()
        self.server.withLock { $0 = server }
        return "http://\(host):\(server.port!)/hook"
    }

    func stop() async {
        if let server = server.withLock({ $0 }) { await server.shutdown() }
    }

    /// Answers the next requests with these responses, then with 204.
    func script(_ responses: [HTTPResponse]) { state.withLock { $0.script.append(contentsOf: responses) } }

    var received: [Received] { state.withLock { $0.received } }

    private func handle(_ request: HTTPRequest) -> HTTPResponse {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.lowercased()] = field.value }
        let verified = (try? verifier.verify(body: request.body, headers: headers, now: clock.now())) != nil
        return state.withLock { state in
            state.received.append(
                Received(
                    messageID: headers["webhook-id"] ?? "", body: request.body, verified: verified,
                    userAgent: headers["user-agent"], contentType: headers["content-type"]))
            return state.script.isEmpty ? .empty(status: .noContent) : state.script.removeFirst()
        }
    }
}
