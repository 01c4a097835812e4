import AccessControl
import Foundation
import JourneyEngine
import HTTPServer
import JourneyAPI
import JourneyTesting
import Testing

/// Request rate limits (issue 23): each router stands for one `serve` process; the buckets live in
/// the shared database, so routers over one database share every limit.
@Suite(.serialized) struct RateLimitTests {
    /// A router like `serve`'s over the stack's database, with `limits`.
    func router(_ h: JourneyHarness, _ limits: RequestRateLimits, webhook: WebhookAuthenticator? = nil) -> TestClient {
        TestClient(router: server(h, limits, webhook: webhook).router)
    }

    func server(_ h: JourneyHarness, _ limits: RequestRateLimits, webhook: WebhookAuthenticator? = nil) -> APIServer {
        var configuration = APIServer.Configuration()
        configuration.rateLimits = limits
        configuration.accessLog = AccessLogEntry.discard
        var dependencies = h.stack.dependencies
        if let webhook { dependencies.webhookAuthentication = webhook }
        return APIServer(
            configuration: configuration, journeys: Journeys(database: h.database.app, dependencies: dependencies.engine),
            keys: APIKeyStore(client: h.database.app), dependencies: dependencies)
    }

    /// Only the given limits, none refilling during a test.
    func limits(
        apiKey: Double? = nil, tenant: Double? = nil, clientToken: Double? = nil,
        webhookTokenFailures: Double? = nil
    ) -> RequestRateLimits {
        var limits = RequestRateLimits.off
        limits.apiKey = apiKey.map { .init(rate: 0.001, burst: $0) }
        limits.tenant = tenant.map { .init(rate: 0.001, burst: $0) }
        limits.clientToken = clientToken.map { .init(rate: 0.001, burst: $0) }
        limits.webhookTokenFailures = webhookTokenFailures.map { .init(rate: 0.001, burst: $0) }
        return limits
    }

    @Test func aBurstOverAKeysLimitGets429ProblemWithRetryAfter() async throws {
        try await withJourneys { h in
            let api = router(h, limits(apiKey: 3))
            let path = "/v1/journeys/\(UUID().uuidString.lowercased())"
            for _ in 0..<3 {
                #expect(try await api.send("GET", path, bearer: h.reader).status == 404)
            }
            let limited = try await api.send("GET", path, bearer: h.reader)
            #expect(limited.status == 429, "\(limited.text)")
            #expect(limited.headers["content-type"] == "application/problem+json")
            #expect(limited.code == "rate_limited")
            #expect(limited["retryable"] as? Bool == true)
            let retryAfter = try #require(limited.headers["retry-after"].flatMap(Int.init))
            #expect(retryAfter >= 1)
            #expect(!limited.text.contains(h.reader) && !limited.text.contains("jk_"))
            // Another key has its own bucket.
            #expect(try await api.send("GET", path, bearer: h.writer).status == 404)
            // A wrong secret spends nothing of anyone's limit: it is refused before the limit.
            #expect(try await api.send("GET", path, bearer: h.reader + "x").status == 401)
        }
    }

    @Test func twoServeInstancesShareOneLimitThroughTheDatabase() async throws {
        try await withJourneys { h in
            let (first, second) = (router(h, limits(tenant: 4)), router(h, limits(tenant: 4)))
            let path = "/v1/journeys/\(UUID().uuidString.lowercased())"
            // The tenant's burst of 4 is spent over both instances (2 each), not 4 in each.
            var statuses: [Int] = []
            for api in [first, second, first, second] {
                statuses.append(try await api.send("GET", path, bearer: h.reader).status)
            }
            #expect(statuses == [404, 404, 404, 404])
            // Both keys belong to the default tenant: the tenant limit holds for either, on either instance.
            let writer = try await first.send("GET", path, bearer: h.writer)
            let reader = try await second.send("GET", path, bearer: h.reader)
            #expect(writer.status == 429 && reader.status == 429)
        }
    }

    @Test func aClientTokensBurstIsLimitedPerJourney() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            #expect(started.status == 201, "\(started.text)")
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let service = server(h, limits(clientToken: 2))
            let app = TestClient(router: service.router)
            for _ in 0..<2 {
                let link = try await app.send("GET", "/v1/journeys/\(id)/link", bearer: clientToken)
                #expect(link.status != 429, "\(link.text)")
            }
            let limited = try await app.send("GET", "/v1/journeys/\(id)/link", bearer: clientToken)
            #expect(limited.status == 429)
            #expect(limited.code == "rate_limited")
            #expect(limited.headers["retry-after"] != nil)
            let metrics = service.metrics.render()
            #expect(
                metrics.contains(#"http_rate_limited_total{limit="client_token",route="/v1/journeys/{id}/link"} 1"#), "\(metrics)"
            )
            #expect(!metrics.contains(id))
        }
    }

    @Test func theWebhookTokenEndpointLimitsFailedAttemptsAndThenTellsNothing() async throws {
        try await withJourneys { h in
            let secret = "Zq3xW9bT7kLm2Rp8Vn4Yc6Hd1Fg5Js0UaEe7Ki9Oo3Xw"
            let issuer = WebhookTokenIssuer(clientID: "unico", clientSecret: secret)
            let api = router(h, limits(webhookTokenFailures: 2), webhook: WebhookAuthenticator(.oauth2(issuer)))
            func attempt(_ secret: String) async throws -> TestResponse {
                try await api.send(
                    "POST", "/v1/unico/oauth/token",
                    form: "grant_type=client_credentials&client_id=unico&client_secret=\(secret)")
            }
            #expect(try await attempt(secret).status == 200)
            #expect(try await attempt("guess-1").status == 401)
            #expect(try await attempt("guess-2").status == 401)
            let limited = try await attempt("guess-3")
            #expect(limited.status == 429)
            #expect(limited.code == "rate_limited")
            #expect(limited.headers["retry-after"] != nil)
            // Over the limit even the right secret gets no token: a guesser cannot tell a hit.
            let right = try await attempt(secret)
            #expect(right.status == 429)
            #expect(right["access_token"] == nil)
            #expect(!right.text.contains("journey"))
        }
    }

    /// Not a benchmark with a bound: prints what the shared limits add to an authenticated request
    /// (one `take_request_tokens` round trip), on whatever else the machine runs.
    @Test func theLimitsCostOneRoundTripPerRequest() async throws {
        try await withJourneys { h in
            let path = "/v1/journeys/\(UUID().uuidString.lowercased())"
            var limits = RequestRateLimits()
            limits.apiKey = .init(rate: 100_000, burst: 100_000)
            limits.tenant = .init(rate: 100_000, burst: 100_000)
            var means: [String: Duration] = [:]
            for (name, api) in [
                ("off", router(h, .off)), ("on", router(h, limits)), ("off again", router(h, .off)),
                ("on again", router(h, limits)),
            ] {
                let started = ContinuousClock.now
                for _ in 0..<200 {
                    let answer = try await api.send("GET", path, bearer: h.reader)
                    #expect(answer.status == 404)
                }
                means[name] = (ContinuousClock.now - started) / 200
            }
            print("authenticated request, mean of 200: \(means)")
        }
    }

    @Test func limitsAreReadFromTheEnvironment() throws {
        let defaults = try RequestRateLimits.fromEnvironment([:])
        #expect(defaults == RequestRateLimits())
        let read = try RequestRateLimits.fromEnvironment([
            RequestRateLimits.apiKeyVariable: "10:20", RequestRateLimits.tenantVariable: "off",
        ])
        #expect(read.apiKey == .init(rate: 10, burst: 20))
        #expect(read.tenant == nil)
        #expect(throws: RequestRateLimits.InvalidSetting.self) {
            try RequestRateLimits.fromEnvironment([RequestRateLimits.clientTokenVariable: "fast"])
        }
        #expect(throws: RequestRateLimits.InvalidSetting.self) {
            try RequestRateLimits.fromEnvironment([RequestRateLimits.apiKeyVariable: "0:5"])
        }
    }

    @Test func unmatchedWebhookFieldsAreCappedBeforeTheyAreRecorded() async throws {
        let token = "Zq3xW9bT7kLm2Rp8Vn4Yc6Hd1Fg5Js0UaEe7Ki9Oo3Xw"
        try await withJourneys(webhook: WebhookAuthenticator(.bearer(token: token))) { h in
            let huge = String(repeating: "x", count: 100_000)
            let answer = try await h.send(
                "POST", "/v1/webhooks/unico", headers: ["Authorization": "Bearer \(token)"],
                json: [
                    "processId": "no-such-process", "state": huge, "lastEvent": huge,
                    "result": huge, "flow": huge,
                ])
            #expect(answer.status == 202, "\(answer.text)")
            let rows = try await h.database.owner.query(
                "SELECT length(data::text) FROM events WHERE stream_name = 'unico-webhooks'")
            let length = try #require(try rows.first?.decode(0, as: Int.self))
            #expect(length < 1_000)
        }
    }
}
