import Foundation
import HTTPServer
import HumanTokenAPI
import Synchronization

/// A loopback stand-in for Unico whose Get Process holds every request until ``release()``
/// (ids starting `race-` are answered at once, to race a cancellation with the answer).
///
/// Each held request is announced on ``arrivals`` (its process id) once the server has it, so a
/// test can cancel a call that is certainly mid-request, without sleeping.
final class HeldUnico: Sendable {
    let server: HTTPServer
    let arrivals: AsyncStream<String>
    private let announce: AsyncStream<String>.Continuation
    private let gate: Gate

    init() {
        let (arrivals, announce) = AsyncStream.makeStream(of: String.self)
        let gate = Gate()
        @Sendable func json(_ text: String) -> HTTPResponse {
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
        var router = Router()
        router.post("/oauth2/token") { _ in json(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#) }
        router.get("/processes/{id}") { request in
            let id = request.pathParameters["id"] ?? ""
            if id.hasPrefix("race-") {
                announce.yield(id)
            } else {
                await gate.pass { announce.yield(id) }
            }
            return json(#"{"id":"\#(id)","state":"PROCESS_STATE_CREATED"}"#)
        }
        self.arrivals = arrivals
        self.announce = announce
        self.gate = gate
        server = HTTPServer(configuration: .init(port: 0), router: router, accessLog: AccessLogEntry.discard)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port ?? 0)")! }

    /// A client with a request timeout far beyond any prompt cancellation.
    func client(requestTimeout: TimeInterval = 30) throws -> HumanTokenAPIClient {
        try HumanTokenAPIClient(
            configuration: HumanTokenAPIConfiguration(
                environment: .uat, serviceAccount: "journeys", tenant: "acme", privateKey: .pem(TestKeys.accountPKCS8),
                tokenHost: baseURL, apiHost: baseURL, requestTimeout: requestTimeout))
    }

    /// Answers every held request and every later one at once.
    func release() { gate.open() }

    /// Requests wait here until the gate opens.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        /// Calls `arrived` once the request is held (or at once when open), then waits for the gate.
        func pass(arrived: @Sendable () -> Void) async {
            await withCheckedContinuation { continuation in
                let held = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return !state.open
                }
                arrived()
                if !held { continuation.resume() }
            }
        }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }
}
