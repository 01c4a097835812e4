import AccessControl
import Foundation
import HumanTokenAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
@testable import JourneyAPI
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Testing

/// With PostgreSQL out of reach every route answers 503 `service_unavailable` with `Retry-After`,
/// never 500; the service recovers by itself when PostgreSQL is back.
@Suite(.serialized) struct OutageTests {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var json: [String: Any]
    }

    /// Sends through the router in-process, with a well-formed key nobody holds.
    func send(_ client: TestClient, _ method: String, _ path: String, json: Bool = false) async throws -> Answer {
        let answer = try await client.send(
            method, path, bearer: APIKeyCredential.generate().text,
            json: json ? [String: Any]() : nil)
        return Answer(
            status: answer.status, headers: answer.headers,
            json: (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:])
    }

    @Test func everyRouteAnswers503WithRetryAfterWhenPostgreSQLIsUnreachable() async throws {
        let unreachable = try PostgresClient(url: "postgresql://journeys_app@127.0.0.1:1/x?connect_timeout=1")
        try await withService(unreachable) { client, service in
            let id = UUID().uuidString.lowercased()
            let mustBe503: Set<String> = [
                "POST /v1/journeys", "GET /v1/journeys", "GET /v1/journeys/{id}",
                "POST /v1/journeys/{id}/token", "GET /v1/journeys/{id}/events", "GET /readyz",
            ]
            var seen: Set<String> = []
            for route in service.routes {
                let name = "\(route.method.rawValue) \(route.path)"
                let path = route.path.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(
                    of: "{name}", with: "funnel")
                let answer = try await send(client, route.method.rawValue, path, json: route.method.rawValue == "POST")
                #expect(answer.status != 500, "\(name) answered 500")
                guard answer.status == 503 else { continue }
                seen.insert(name)
                #expect(answer.json["code"] as? String == "service_unavailable", "\(name)")
                #expect(answer.json["database"] as? String == "unreachable", "\(name)")
                #expect(answer.headers["retry-after"] == "1", "\(name)")
                #expect(answer.headers["content-type"] == "application/problem+json", "\(name)")
            }
            #expect(mustBe503.isSubset(of: seen), "not 503: \(mustBe503.subtracting(seen).sorted())")
        }
    }

    @Test func aLostConnectionIs503AndTheNextRequestIsServed() async throws {
        try await withJourneys { h in
            #expect(try await h.send("GET", "/v1/journeys", bearer: h.reader).status == 200)
            // What a PostgreSQL restart does to the pooled connections of the service.
            try await h.database.superuser.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND usename = 'journeys_app'
                """)
            // pg_terminate_backend only signals; wait (bounded) until the backends are gone, so the
            // pooled connection is dead when the next request uses it.
            try await waitUntil("the application's backends are gone") {
                try await h.database.superuser.query(
                    """
                    SELECT count(*)::int FROM pg_stat_activity
                    WHERE datname = current_database() AND usename = 'journeys_app'
                    """
                ).first?.decode(0, as: Int.self) ?? 0 == 0
            }
            let lost = try await h.send("GET", "/v1/journeys", bearer: h.reader)
            // A pool that notices the dead connection first reconnects and answers 200; one that
            // sends on it must answer 503 with Retry-After, never 500.
            #expect(lost.status == 503 || lost.status == 200)
            if lost.status == 503 {
                #expect(lost.code == "service_unavailable")
                #expect(lost.headers["retry-after"] == "1")
            }
            var recovered = try await h.send("GET", "/v1/journeys", bearer: h.reader)
            for _ in 0..<8 where recovered.status == 503 {
                recovered = try await h.send("GET", "/v1/journeys", bearer: h.reader)
            }
            #expect(recovered.status == 200)
            let started = try await h.start(key: "after-the-blip")
            #expect(started.status == 201)
        }
    }

    @Test func aStartInterruptedByTheDatabaseIs503NamingTheJourney() {
        let lost = EngineError(
            .startInterrupted, "interrupted", journeyID: JourneyID("j-1"),
            underlying: PostgresError(.connectionClosed, "server closed the connection"))
        let problem = Problem.engine(lost)
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.code == "service_unavailable")
        #expect(problem.extra["journeyId"] == "j-1")
        #expect(problem.headers["Retry-After"] == "1")
        let refused = EngineError(
            .startInterrupted, "interrupted", journeyID: JourneyID("j-2"),
            underlying: EngineError(
                .processCreationFailed, "Create Process failed",
                unico: HumanTokenAPIError(.rateLimited, "slow", status: 429)))
        #expect(Problem.engine(refused).status == .tooManyRequests)
        #expect(Problem.engine(refused).extra["journeyId"] == "j-2")
        #expect(Problem.mapped(PostgresError(.uniqueViolation, "duplicate")) == nil)
    }
}
