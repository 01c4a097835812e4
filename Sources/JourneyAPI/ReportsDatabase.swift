import HTTPServer
import Postgres

/// Where reading work that may lag runs (reports, dashboard, journey listing): the hot standby
/// of `REPORTS_DATABASE_URL`, or the primary itself. A standby that does not answer is a 503
/// `reports_unavailable`; the primary, and so every write, is not involved.
struct ReportsDatabase: Sendable {
    let client: PostgresClient
    /// True when `client` is a standby of its own (not the application pool).
    let isReplica: Bool

    /// Runs `body` on the reports database, mapping an unreachable standby to a problem.
    func read<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        do {
            return try await body(client)
        } catch let error as PostgresError where isReplica && error.isUnavailable {
            throw Problem.reportsUnavailable()
        }
    }
}

extension Problem {
    /// 503 `reports_unavailable`: the reports database (`REPORTS_DATABASE_URL`) cannot be reached.
    static func reportsUnavailable() -> Problem {
        Problem(status: .serviceUnavailable, code: "reports_unavailable",
                detail: "The reports database (REPORTS_DATABASE_URL) cannot be reached; journeys are still served. Retry shortly.",
                extra: ["database": "reports"], headers: ["Retry-After": "5"])
    }
}
