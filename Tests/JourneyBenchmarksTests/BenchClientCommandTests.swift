import Foundation
import JourneyTesting
import Testing

@Suite struct BenchClientCommandTests {
    @Test func clientBenchmarkComparesWithPgbenchInOneRun() async throws {
        try await TestDatabase.with(poolSize: 2) { db in
            let result = await journeysBench(["client", "--seconds", "1", "--clients", "2", "--json"], database: db)
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
    }
}
