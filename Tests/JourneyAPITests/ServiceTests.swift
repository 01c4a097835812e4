import AccessControl
import Foundation
import JourneyEngine
import HTTPServer
import HumanTokenAPI
import JourneyDomain
@testable import JourneyAPI
import JourneyTesting
import Postgres
import Testing

/// The service against `database`, with development keys and `unico` clients, called in-process.
func withService(
    _ database: PostgresClient, unico: [Environment: HumanTokenAPIClient] = [:],
    webhookAuthentication: WebhookAuthenticator? = nil,
    _ body: (TestClient, APIServer) async throws -> Void
) async throws {
    var dependencies = try JourneyDependencies.development(database: database, unico: unico)
    dependencies.webhookAuthentication = webhookAuthentication
    let service = APIServer(
        configuration: APIServer.Configuration(), journeys: Journeys(database: database, dependencies: dependencies.engine),
        keys: APIKeyStore(client: database), dependencies: dependencies)
    try await body(TestClient(router: service.router), service)
}

func get(_ client: TestClient, _ path: String) async throws -> (status: Int, type: String, body: Data) {
    let answer = try await client.send("GET", path)
    return (answer.status, answer.headers["content-type"] ?? "", answer.body)
}

@Suite struct ServiceTests {
    @Test func healthReadinessAndMetrics() async throws {
        try await TestDatabase.with { db in
            try await withService(db.app) { client, _ in
                #expect(try await get(client, "/healthz").status == 200)
                let ready = try await get(client, "/readyz")
                #expect(ready.status == 200)
                _ = try await get(client, "/nope")
                let metrics = try await get(client, "/metrics")
                let text = String(decoding: metrics.body, as: UTF8.self)
                #expect(metrics.type.hasPrefix("text/plain"))
                #expect(text.contains(#"http_requests_total{method="GET",route="/readyz",status="200"} 1"#))
                #expect(text.contains(#"route="unmatched",status="404""#))
                #expect(text.contains("http_request_duration_seconds_bucket"))
            }
        }
    }

    @Test func readinessFailsWithPendingMigrations() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await withService(db.owner) { client, _ in
                let ready = try await get(client, "/readyz")
                #expect(ready.status == 503)
                #expect(ready.type == "application/problem+json")
                let problem = try JSONSerialization.jsonObject(with: ready.body) as? [String: Any]
                #expect(problem?["code"] as? String == "schema_outdated")
            }
        }
    }

    @Test func readinessFailsWhenTheDatabaseIsUnreachable() async throws {
        let unreachable = try PostgresClient(url: "postgresql://journeys_app@127.0.0.1:1/x?connect_timeout=1")
        try await withService(unreachable) { client, _ in
            let ready = try await get(client, "/readyz")
            #expect(ready.status == 503)
            let problem = try JSONSerialization.jsonObject(with: ready.body) as? [String: Any]
            #expect(problem?["code"] as? String == "service_unavailable")
            #expect(problem?["database"] as? String == "unreachable")
        }
    }

    @Test func openAPIDocumentListsExactlyTheRegisteredRoutes() async throws {
        try await TestDatabase.with { db in
            try await withService(db.app) { client, service in
                let registered = Set(service.routes.map { "\($0.method.rawValue) \($0.path)" })
                #expect(registered == OpenAPIDocument.operations)
                let served = try await get(client, "/openapi.json")
                #expect(served.status == 200)
                let document = try JSONSerialization.jsonObject(with: served.body) as? [String: Any]
                #expect(document?["openapi"] as? String == "3.1.0")
            }
        }
    }
}
