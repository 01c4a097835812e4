import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import Migrations
import Observability
import Postgres
import Projections

/// `/healthz` (the process answers), `/readyz` (database reachable, schema current), `/metrics`
/// (optionally behind a bearer token; gauges from the read models, cached).
struct HealthRoutes: Sendable {
    let database: PostgresClient
    let reports: ReportsDatabase
    let metrics: MetricsRegistry
    let gauges: MetricsGauges
    let access: MetricsAccess
    /// Key variables that fell back to the development keys (reported by `/readyz`).
    var developmentKeys: [String] = []

    func register(on router: inout Router) {
        router.get("/healthz") { _ in try .json(["status": "ok"]) }
        router.get("/readyz") { _ in try await readiness() }
        router.get("/metrics") { request in
            try access.check(request)
            await gauges.refreshIfStale()
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4"], body: Data(metrics.render().utf8))
        }
    }

    /// The gauges this module reads: journeys per state, results over the SLA, journeys whose due
    /// work is overdue, and each follower's lag behind the log.
    static func readers(database: PostgresClient, reports: ReportsDatabase) -> [MetricsGaugeReader] {
        var readers: [MetricsGaugeReader] = [
            { metrics, now in try await journeyGauges(database: database, metrics: metrics, now: now) },
            { metrics, _ in try await lagGauges(database: database, metrics: metrics) },
        ]
        if reports.isReplica { readers.append { metrics, _ in await replicaGauges(reports.client, metrics: metrics) } }
        return readers
    }

    /// Sets `journeys_by_state{state}` (every state, zeros included), `journeys_awaiting_result_over_sla`
    /// and `journeys_due_overdue` from the journey-state read model.
    private static func journeyGauges(database: PostgresClient, metrics: MetricsRegistry, now: Date) async throws {
        let minutes = resultSLAMinutes
        let (counts, late) = try await JourneyStateQueries.statusCounts(resultOverdueAfterMinutes: minutes, on: database)
        let overdue = try await JourneyStateQueries.dueCount(before: now.addingTimeInterval(-dueOverdueSeconds), on: database)
        for status in JourneyStatus.allCases where status != .notStarted {
            metrics.set(
                "journeys_by_state", help: "Journeys per state, from the journey-state read model.",
                labels: ["state": status.rawValue], to: Double(counts[status.rawValue] ?? 0))
        }
        metrics.set(
            "journeys_awaiting_result_over_sla",
            help: "Journeys with a success callback and no result after \(minutes) minutes (the sla report lists them).",
            to: Double(late))
        metrics.set(
            "journeys_due_overdue",
            help:
                "Journeys whose next due work (expiry, retry, reconciliation, result) is more than \(Int(dueOverdueSeconds)) s late.",
            to: Double(overdue))
    }

    /// Sets `journeys_projection_lag_events{projection}` and `journeys_projection_lag_seconds{projection}`
    /// for every checkpointed follower of the log (read models and outbound webhooks).
    private static func lagGauges(database: PostgresClient, metrics: MetricsRegistry) async throws {
        for status in try await CheckpointStore(client: database).statuses() {
            metrics.set(
                "journeys_projection_lag_events", help: "Readable events a follower of the log has not applied yet.",
                labels: ["projection": status.name], to: Double(status.lagEvents))
            metrics.set(
                "journeys_projection_lag_seconds",
                help: "Age in seconds of the oldest event a follower has not applied; 0 when caught up.",
                labels: ["projection": status.name], to: status.lagSeconds)
        }
    }

    /// With a reports standby: `journeys_reports_replica_up` and its replay lag in seconds
    /// (the last lag stays when the standby does not answer).
    private static func replicaGauges(_ reports: PostgresClient, metrics: MetricsRegistry) async {
        let lag = try? await reports.standbyLag()
        metrics.set(
            "journeys_reports_replica_up", help: "1 when the reports database (REPORTS_DATABASE_URL) answers.",
            to: lag == nil ? 0 : 1)
        guard let lag else { return }
        metrics.set(
            "journeys_reports_replica_lag_seconds",
            help: "How far the reports standby's replay is behind the primary, in seconds (0 when caught up).",
            to: lag.seconds)
    }

    /// Minutes after a success callback by which a result is expected; the `sla` report's default.
    static let resultSLAMinutes = 10
    /// Seconds after its due time from which a journey's due work counts as overdue.
    static let dueOverdueSeconds: TimeInterval = 300

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
            warnings =
                variables.isEmpty
                ? nil
                : [
                    "development keys in use (public, for a laptop only): set \(variables.joined(separator: ", "))"
                ]
        }
    }
}
