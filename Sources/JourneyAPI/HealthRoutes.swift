import Foundation
import HTTPServer
import JourneyDomain
import Migrations
import Observability
import Postgres
import Projections

/// `/healthz` (the process answers), `/readyz` (database reachable, schema current), `/metrics`.
struct HealthRoutes: Sendable {
    let database: PostgresClient
    let metrics: MetricsRegistry
    /// Key variables that fell back to the development keys (reported by `/readyz`).
    var developmentKeys: [String] = []

    func register(on router: inout Router) {
        router.get("/healthz") { _ in try .json(["status": "ok"]) }
        router.get("/readyz") { _ in try await readiness() }
        router.get("/metrics") { _ in
            await refreshJourneyGauges()
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4"], body: Data(metrics.render().utf8))
        }
    }

    /// Sets `journeys_by_state{state}` from the journey-state read model (every state, zeros
    /// included); leaves the last values when the database does not answer.
    private func refreshJourneyGauges() async {
        let minutes = Self.resultSLAMinutes
        guard let (counts, late) = try? await JourneyStateQueries.statusCounts(resultOverdueAfterMinutes: minutes,
                                                                                on: database) else { return }
        for status in JourneyStatus.allCases where status != .notStarted {
            metrics.set("journeys_by_state", help: "Journeys per state, from the journey-state read model.",
                        labels: ["state": status.rawValue], to: Double(counts[status.rawValue] ?? 0))
        }
        metrics.set("journeys_awaiting_result_over_sla",
                    help: "Journeys with a success callback and no result after \(minutes) minutes (the sla report lists them).",
                    to: Double(late))
    }

    /// Minutes after a success callback by which a result is expected; the `sla` report's default.
    static let resultSLAMinutes = 10

    private func readiness() async throws -> HTTPResponse {
        let pending: [String]
        do {
            pending = try await Migrator().pending(database)
        } catch {
            throw Problem.databaseUnavailable()
        }
        guard pending.isEmpty else {
            throw Problem(status: .serviceUnavailable, code: "schema_outdated", detail: "\(pending.count) migrations are pending")
        }
        return try .json(Readiness(developmentKeys: developmentKeys))
    }

    /// The body of a ready answer; with development keys, a warning naming the variables to set.
    struct Readiness: Encodable {
        let status = "ready"
        let developmentKeys: Bool
        let warnings: [String]?

        init(developmentKeys variables: [String]) {
            developmentKeys = !variables.isEmpty
            warnings = variables.isEmpty ? nil : [
                "development keys in use (public, for a laptop only): set \(variables.joined(separator: ", "))"]
        }
    }
}
