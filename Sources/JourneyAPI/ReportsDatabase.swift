import HTTPServer
import Postgres

/// Where reading work that may lag runs (reports, dashboard, journey listing): the hot standby
/// of `REPORTS_DATABASE_URL`, or the primary itself. A standby that does not answer is a 503
/// `reports_unavailable`; the primary, and so every write, is not involved.
struct ReportsDatabase: Sendable {
    let client: PostgresClient
    /// True when `client` is a standby of its own (not the application pool).
    let isReplica: Bool
    /// Seconds of replay lag beyond which a standby's answers are refused (nil: never).
    var maxLag: Double? = nil

    /// Runs `body` on the reports database, mapping an unreachable or lagging standby to a problem.
    func read<T: Sendable>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        do {
            if isReplica, let maxLag {
                let lag = try await client.standbyLag().seconds
                if lag > maxLag { throw Problem.reportsLagging(seconds: lag, limit: maxLag) }
            }
            return try await body(client)
        } catch let error as PostgresError where isReplica && error.isUnavailable {
            throw Problem.reportsUnavailable()
        }
    }
}

extension Problem {
    /// 503 `reports_unavailable`: the reports database (`REPORTS_DATABASE_URL`) cannot be reached.
    static func reportsUnavailable() -> Problem {
        Problem(
            status: .serviceUnavailable, code: "reports_unavailable",
            detail: "The reports database (REPORTS_DATABASE_URL) cannot be reached; journeys are still served. Retry shortly.",
            extra: ["database": "reports"], headers: ["Retry-After": "5"])
    }

    /// 503 `reports_lagging`: the standby's replay is further behind than `REPORTS_MAX_LAG`.
    static func reportsLagging(seconds: Double, limit: Double) -> Problem {
        Problem(
            status: .serviceUnavailable, code: "reports_lagging",
            detail: "The reports database (REPORTS_DATABASE_URL) replays \(Int(seconds.rounded(.up))) s behind the primary, "
                + "more than REPORTS_MAX_LAG (\(limit.formatted()) s); journeys are still served. Retry shortly.",
            extra: ["database": "reports", "lagSeconds": String(Int(seconds.rounded(.up)))], headers: ["Retry-After": "5"])
    }
}
