import Cryptography
import Foundation
import HTTPServer
import Synchronization

/// A local stand-in for Unico: token endpoint, Create/Get Process, SDK-facing capture endpoints and
/// webhook delivery, served over real HTTP.
///
/// One server plays both of Unico's hosts, so a client points its token host and API host at the
/// same `baseURL`. Run it as a service (`try await emulator.run()` until cancelled) or, in tests,
/// `try emulator.start()` … `await emulator.shutdown()`.
///
/// - `POST /oauth2/token`, form `grant_type`, `assertion` → `{"access_token","token_type","expires_in"}`;
///   refusals `{"error":"server_error","error_description":"Falha na autenticação <code>"}`, 401 (400 malformed form).
/// - `POST /processes` (Bearer) → 200, process fields under `process` or, with
///   `responseShape` `.flat`, at the top level (see `ProcessView`); refusals `{"error":{"code","message"}}`: 400/3, 401/16, 429/8 with `Retry-After`.
/// - `GET /processes/{id}` (Bearer) → 200 like above without tokens, plus `result`, `finishedAt`,
///   `data.humanToken.value`; 404/5 for other tenants and environments.
/// - `POST /sdk/captures` `{"webAppToken","environment"}` → 201 `{"captureId","processId"}`, or
///   `{"sdkCode","message"}` with 73203, 73303, 73304 or 73305.
/// - `POST /sdk/captures/{id}/finish` `{"outcome":"approved|rejected|expired|error"}` → 200
///   `{"processId","state","result"}`; queues the webhook.
/// - `GET /link/{id}` (HTML placeholder), `POST /link/{id}/captures` (a capture through the link
///   while the process is open: 201 `{"captureId","processId"}`, finished as above) and `GET /healthz`.
public final class UnicoEmulator: Sendable {
    public let configuration: Configuration
    let core: EmulatorCore
    private let server: HTTPServer
    private let dispatcher: EmulatorWebhookSender
    private let background = Mutex<Task<Void, Never>?>(nil)

    /// Validates `configuration` and generates the emulator's token-signing key; nothing listens yet.
    public init(configuration: Configuration) throws(EmulatorError) {
        try configuration.validate()
        self.configuration = configuration
        let faults = FaultPlan(script: configuration.faultScript, seed: configuration.seed)
        let (clock, offset) = (configuration.clock, configuration.faultScript.clockOffsetSeconds)
        let dispatcher = EmulatorWebhookSender(
            configuration: configuration.webhook, faults: faults,
            now: { clock.now().addingTimeInterval(offset) })
        self.dispatcher = dispatcher
        core = EmulatorCore(
            configuration: configuration, faults: faults, signingKey: Ed25519PrivateKey.generate(),
            announce: { dispatcher.enqueue($0) })
        server = HTTPServer(
            configuration: HTTPServer.Configuration(host: configuration.host, port: configuration.port),
            router: core.makeRouter(), accessLog: configuration.accessLog,
            makeRequestID: { SecureRandom.uuid().uuidString.lowercased() })
    }

    /// The bound port while running.
    public var port: Int? { server.port }

    /// `http://host:port` while running; use it as both token host and API host.
    public var baseURL: URL? {
        port.flatMap { URL(string: "http://\(hostForURL):\($0)") }
    }

    /// Serves and delivers webhooks until cancelled or `shutdown()`, then stops gracefully.
    public func run() async throws {
        try start()
        let task = background.withLock { $0 }
        await withTaskCancellationHandler {
            await task?.value
        } onCancel: {
            task?.cancel()
        }
        await shutdown()
    }

    /// Binds the server and starts the webhook and expiry background work.
    public func start() throws(EmulatorError) {
        do {
            try server.start()
        } catch {
            throw EmulatorError(.serverFailed, "could not start the HTTP server: \(error)")
        }
        if let baseURL { core.baseURL = baseURL.absoluteString }
        let dispatcher = dispatcher
        let core = core
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await dispatcher.run() }
                group.addTask {
                    while !Task.isCancelled {
                        core.expireDueProcesses()
                        try? await Task.sleep(for: .milliseconds(250))
                    }
                }
            }
        }
        background.withLock { $0 = task }
    }

    /// Stops background work and the server; in-flight requests get the server's grace period.
    public func shutdown() async {
        let task = background.withLock { $0 }
        task?.cancel()
        await task?.value
        await server.shutdown()
    }

    /// Every process created so far, oldest first (overdue ones are expired first).
    public func processes() -> [ProcessRecord] {
        core.expireDueProcesses()
        return core.state.withLock { state in state.processOrder.compactMap { state.processes[$0] } }
    }

    /// One process by id, expired first if overdue.
    public func process(id: String) -> ProcessRecord? {
        core.process(id: id)
    }

    /// Invalidates every access token issued so far, so the next API call answers 401; for testing
    /// a client's refresh-once-on-401.
    public func revokeAccessTokens() {
        core.state.withLock { $0.accessTokens.removeAll() }
    }

    /// Every webhook notification taken for delivery so far, with its attempts and outcome.
    public func webhookDeliveries() -> [EmulatorWebhookRecord] {
        dispatcher.deliveries
    }

    /// Webhook OAuth2 token requests sent so far (0 unless the webhook uses `oauth2`).
    public var webhookTokenFetches: Int { dispatcher.tokens?.fetchCount ?? 0 }

    /// The fault decisions in effect (script and seed).
    public var faultPlan: FaultPlan { core.faults }

    private var hostForURL: String {
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        return host.contains(":") ? "[\(host)]" : host
    }
}
