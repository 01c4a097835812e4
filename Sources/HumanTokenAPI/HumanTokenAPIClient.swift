import Cryptography
import Foundation
import JSONBytes
import Observability

/// The client for Unico's Human Token API in one environment (UAT or PROD).
///
/// Authenticates with the OAuth2 JWT-bearer grant, caches the access token, refreshes it once
/// on a 401, and paces calls with the tenant's ``HumanTokenRateLimiter``; a live call resends after a
/// 429 within ``HumanTokenAPIConfiguration/liveRateWait`` (a 429 was not handled). Nothing is retried
/// otherwise: Create Process has no idempotency key, so retries are the caller's decision.
///
/// ```swift
/// let configuration = try HumanTokenAPIConfiguration.fromEnvironment(environment: .prod)
/// let unico = try HumanTokenAPIClient(configuration: configuration)
/// let process = try await unico.createProcess(request)            // .live by default
/// let snapshot = try await unico.getProcess(process.id)           // .background by default
/// ```
public final class HumanTokenAPIClient: Sendable {
    /// The settings this client was made with.
    public let configuration: HumanTokenAPIConfiguration
    /// The limiter every call waits on; share it among clients of the same tenant.
    public let rateLimiter: HumanTokenRateLimiter
    let tokens: AccessTokenProvider
    private let exchange: HTTPExchange
    private let clock: @Sendable () -> Date
    /// The client this one shares its HTTP client and tokens with (``forCaller(_:)``), kept alive by it.
    private let parent: HumanTokenAPIClient?

    /// Makes a client; throws `configuration` naming the first unusable setting.
    ///
    /// Requests go through an `OutboundHTTPClient` (connections kept alive between calls, no
    /// cache, no cookies, no redirects), each bounded by ``HumanTokenAPIConfiguration/requestTimeout``.
    ///
    /// - Parameters:
    ///   - rateLimiter: the tenant's limiter. Default: a new one at ``HumanTokenAPIConfiguration/rateLimit``.
    ///   - clock: the time for assertions (`iat`, `exp`) and token caching. Default: the system clock.
    ///   - logger: where a failed access-token fetch is logged (at `error`, with its codes only).
    ///     Default: label `unico` on standard error.
    public convenience init(
        configuration: HumanTokenAPIConfiguration,
        rateLimiter: HumanTokenRateLimiter? = nil,
        clock: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "unico")
    ) throws {
        try self.init(
            configuration: configuration, rateLimiter: rateLimiter, clock: clock, logger: logger,
            drawLifetime: { Int64.random(in: $0) })
    }

    /// As above; `drawLifetime` picks each second's first assertion lifetime (tests force collisions with it).
    init(
        configuration: HumanTokenAPIConfiguration, rateLimiter: HumanTokenRateLimiter? = nil,
        clock: @escaping @Sendable () -> Date = Date.init, logger: Logger = Logger(label: "unico"),
        drawLifetime: @escaping @Sendable (ClosedRange<Int64>) -> Int64
    ) throws {
        try configuration.validate()
        let key = try configuration.privateKey.load(setting: "privateKey")
        let exchange = HTTPExchange(timeout: configuration.requestTimeout)
        self.configuration = configuration
        self.rateLimiter = rateLimiter ?? HumanTokenRateLimiter(requestsPerSecond: configuration.rateLimit)
        self.exchange = exchange
        self.clock = clock
        self.parent = nil
        self.tokens = AccessTokenProvider(
            signer: AssertionSigner(issuer: configuration.issuer, audience: configuration.audience, key: key, draw: drawLifetime),
            endpoint: configuration.tokenEndpoint, exchange: exchange,
            margin: configuration.tokenRefreshMargin, clock: clock,
            logger: {
                var logger = logger; logger.metadata["environment"] = configuration.environment.rawValue; return logger
            }())
    }

    /// Access-token fetches that failed since this client was made, by error code
    /// (`unauthorized`, `server_error`, `timeout`, …): the source of the
    /// `unico_authentication_failures_total` metric.
    public var authenticationFailures: [String: Int] { tokens.failures }

    /// This client for `caller` (a journeys tenant using the deployment's Unico account): the same
    /// HTTP client and access tokens, paced by ``HumanTokenRateLimiter/forCaller(_:)``, so that the
    /// caller takes from its own share of the tenant's rate when the limiter's budget has shares.
    /// Itself when it has none.
    public func forCaller(_ caller: String) -> HumanTokenAPIClient {
        let limiter = rateLimiter.forCaller(caller)
        guard limiter !== rateLimiter else { return self }
        return HumanTokenAPIClient(sharing: parent ?? self, rateLimiter: limiter)
    }

    private init(sharing parent: HumanTokenAPIClient, rateLimiter: HumanTokenRateLimiter) {
        self.configuration = parent.configuration
        self.rateLimiter = rateLimiter
        self.tokens = parent.tokens
        self.exchange = parent.exchange
        self.clock = parent.clock
        self.parent = parent
    }

    /// Creates a process (`POST {apiHost}{createProcessPath}`, default `/processes`).
    ///
    /// Not idempotent: after a `timeout`, `transport` or `server_error` the process may exist;
    /// look it up by `clientReference` before creating another.
    public func createProcess(
        _ request: CreateProcessRequest, priority: RequestPriority = .live
    ) async throws -> CreatedProcess {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body: Data
        do {
            body = try encoder.encode(request)
        } catch {
            throw HumanTokenAPIError(.invalidArgument, "Create Process request could not be encoded")
        }
        let json = try await call(
            "POST", configuration.apiURL(configuration.createProcessPath), body: body, expecting: [200, 201],
            priority: priority, what: "Create Process")
        return try CreatedProcess(json: json)
    }

    /// Reads a process (`GET {apiHost}{getProcessPath}`, default `/processes/{id}`).
    public func getProcess(_ id: String, priority: RequestPriority = .background) async throws -> UnicoProcessSnapshot {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        guard !id.isEmpty, id != ".", id != "..", let escaped = id.addingPercentEncoding(withAllowedCharacters: allowed) else {
            throw HumanTokenAPIError(.invalidArgument, "Get Process needs a process id", field: "id")
        }
        let json = try await call(
            "GET", configuration.apiURL(configuration.getProcessPath.replacingOccurrences(of: "{id}", with: escaped)),
            body: nil, expecting: [200],
            priority: priority, what: "Get Process")
        return try UnicoProcessSnapshot(json: json)
    }

    /// Finds the tenant's processes created with `clientReference`
    /// (`GET {apiHost}{findProcessesPath}?clientReference=X`, default `/processes`), oldest first.
    ///
    /// ASSUMED endpoint: Unico documents `clientReference` as indexed on its side but publishes no
    /// search; the emulator serves this shape (`{"processes": [...]}`). Used to reconcile a Create
    /// Process whose answer was lost before creating another process for the same attempt. With
    /// ``HumanTokenAPIConfiguration/lookup`` `none` it sends nothing and throws `configuration`.
    public func findProcesses(clientReference: String, priority: RequestPriority = .background) async throws -> [FoundProcess] {
        guard configuration.lookup == .search else {
            throw HumanTokenAPIError(
                .configuration, "the lookup by client reference is turned off (lookup: none)",
                field: "lookup")
        }
        guard !clientReference.isEmpty,
            var components = URLComponents(
                url: configuration.apiURL(configuration.findProcessesPath),
                resolvingAgainstBaseURL: false)
        else { throw HumanTokenAPIError(.invalidArgument, "the lookup needs a client reference", field: "clientReference") }
        components.queryItems = [URLQueryItem(name: "clientReference", value: clientReference)]
        // '+' is a space in many query decoders: encode it.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw HumanTokenAPIError(.invalidArgument, "the client reference cannot be put in a URL", field: "clientReference")
        }
        let json = try await call("GET", url, body: nil, expecting: [200], priority: priority, what: "Find Processes")
        guard let list = json["processes"]?.arrayValue else {
            throw HumanTokenAPIError(.invalidResponse, "Find Processes answer has no processes", field: "processes")
        }
        return try list.map(FoundProcess.init(json:))
    }

    /// Sends one API call with a bearer token, refreshing the token and retrying once on a 401.
    private func call(
        _ method: String, _ url: URL, body: Data?, expecting: Set<Int>, priority: RequestPriority, what: String
    ) async throws -> JSONValue {
        var token = try await tokens.token()
        var refreshed = false
        // A person waits on a live call: it waits for a rate token (a 429's Retry-After
        // included) at most `liveRateWait`, then fails `rate_limited`.
        let deadline = priority == .live ? ContinuousClock.now + .seconds(configuration.liveRateWait) : nil
        while true {
            // Timed requests (`StageTimer.current`) record the wait as `unico_rate_wait`.
            try await StageTimer.measure("unico_rate_wait") { try await rateLimiter.acquire(priority, before: deadline) }
            var headers = [("Authorization", "Bearer \(token.value)"), ("Accept", "application/json")]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            let response = try await exchange.send(method, url, headers: headers, body: body)
            if response.status == 401, !refreshed {
                tokens.invalidate(token)
                token = try await tokens.token()
                refreshed = true
                continue
            }
            guard expecting.contains(response.status) else {
                let error = HumanTokenAPIError.fromAPI(response, now: clock(), what: what)
                if let retryAfter = error.retryAfter {
                    rateLimiter.pause(for: TimeInterval(retryAfter))
                    // A 429 was not handled, so it is safe to send again once the pause ends.
                    if error.code == .rateLimited, let deadline,
                        ContinuousClock.now + .seconds(retryAfter) <= deadline
                    {
                        continue
                    }
                }
                throw error
            }
            guard let json = JSONValue.parse(response.body) else {
                throw HumanTokenAPIError(.invalidResponse, "\(what) answered with a body that is not JSON")
            }
            return json
        }
    }
}
