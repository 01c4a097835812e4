import Foundation
import HTTPServer
import Migrations
import Observability
import Postgres

/// `/healthz` (the process answers), `/readyz` (database reachable, schema current), `/metrics`.
struct HealthRoutes: Sendable {
    let database: PostgresClient
    let metrics: MetricsRegistry

    func register(on router: inout Router) {
        router.get("/healthz") { _ in try .json(["status": "ok"]) }
        router.get("/readyz") { _ in try await readiness() }
        router.get("/metrics") { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4"], body: Data(metrics.render().utf8))
        }
    }

    private func readiness() async throws -> HTTPResponse {
        let pending: [String]
        do {
            pending = try await Migrator().pending(database)
        } catch {
            throw Problem(status: .serviceUnavailable, code: "database_unavailable", detail: "the database is not reachable")
        }
        guard pending.isEmpty else {
            throw Problem(status: .serviceUnavailable, code: "schema_outdated", detail: "\(pending.count) migrations are pending")
        }
        return try .json(["status": "ready"])
    }
}
