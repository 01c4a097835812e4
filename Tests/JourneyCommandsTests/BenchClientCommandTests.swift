import Foundation
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct BenchClientCommandTests {
    @Test func clientBenchmarkComparesWithPgbenchInOneRun() async throws {
        let db = try await TestDatabase.create(poolSize: 2)
        defer { Task { await db.drop() } }
        let result = await journeys(["bench", "client", "--seconds", "1", "--clients", "2", "--json"], database: db)
        #expect(result.code == 0, "\(result.error)")
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(json?["clients"] as? Int == 2)
        for statement in ["insert", "select"] {
            let group = json?[statement] as? [String: Any]
            for key in ["rows_per_s", "pgbench_rows_per_s", "ratio_to_pgbench", "uncached_rows_per_s", "p50_ms", "p99_ms"] {
                #expect((group?[key] as? Double ?? 0) > 0, "\(statement).\(key)")
            }
        }
    }

    @Test func aBadPreparedStatementsSettingNamesTheVariable() async throws {
        let result = await journeys(["report", "funnel", "--from", "2026-01-01", "--to", "2026-01-31"],
                                    extra: ["DATABASE_URL": "postgresql://journeys_app:secret@127.0.0.1:1/journeys",
                                            "DATABASE_PREPARED_STATEMENTS": "sometimes"])
        #expect(result.code != 0)
        #expect(result.error.contains("DATABASE_PREPARED_STATEMENTS"))
        #expect(!result.error.contains("secret"))
    }
}
