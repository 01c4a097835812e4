import Foundation
import JourneyTesting
import Testing

/// `journeys-bench claims`, run in-process (its claimers as tasks: `--in-process`).
@Suite struct BenchClaimsCommandTests {
    @Test func benchClaimsReportsNamedFiguresAndNoDuplicates() async throws {
        let result = try await TestDatabase.with { db in
            await journeysBench(["claims", "--journeys", "2000", "--due-percent", "10", "--json", "--in-process"], database: db)
        }
        #expect(result.code == 0, "\(result.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["due"] as? Int == 200)
        for workload in ["worker_claims", "queue_only_claims", "skip_locked_delete_baseline"] {
            let group = try #require(json[workload] as? [String: Any], "\(workload)")
            #expect(group["claims"] as? Int == 200)
            #expect(group["duplicates"] as? Int == 0)
            #expect((group["claims_per_s"] as? Double ?? 0) > 0)
            #expect(group["p50_ms"] is Double && group["p99_ms"] is Double)
        }
    }
}
