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
    let reports: ReportsDatabase
    let metrics: MetricsRegistry

    func register(on router: inout Router) {
        router.get("/healthz") { _ in try .json(["status": "ok"]) }
        router.get("/readyz") { _ in try await readiness() }
        router.get("/metrics") { _ in
            await refreshJourneyGauges()
            await refreshReplicaGauges()
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

    /// With a reports standby: `journeys_reports_replica_up` and its replay lag in seconds
    /// (the last lag stays when the standby does not answer).
    private func refreshReplicaGauges() async {
        guard reports.isReplica else { return }
        let lag = try? await reports.client.standbyLag()
        metrics.set("journeys_reports_replica_up", help: "1 when the reports database (REPORTS_DATABASE_URL) answers.",
                    to: lag == nil ? 0 : 1)
        guard let lag else { return }
        metrics.set("journeys_reports_replica_lag_seconds",
                    help: "How far the reports standby's replay is behind the primary, in seconds (0 when caught up).",
                    to: lag.seconds)
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
        return try .json(["status": "ready"])
    }
}
