import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Projections
import Testing

/// The rebuild's pipelined, cached fold (tuned for `bench rebuild`) against the live runner.
@Suite struct RebuildPipelineTests {
    @Test func aRebuildWithTinyBatchesAndATinyCacheEqualsTheLiveProjection() async throws {
        try await TestDatabase.with { db in
            // Interleave journeys step by step so each one spans many batches.
            let ids = (0..<6).map { _ in JourneyID(UUID().uuidString.lowercased()) }
            let histories = ids.map(approvedOnSecondAttempt)
            let repository = JourneyCommandRunner(database: db.app)
            for step in 0..<histories[0].count {
                for (index, id) in ids.enumerated() where step < histories[index].count - index % 3 {
                    _ = try await repository.execute(histories[index][step], journey: id, metadata: EventMetadata(actor: "t"))
                }
            }
            try await db.waitUntilReadable()
            _ = try await ProjectionRunner(client: db.owner).catchUp()
            let live = try await rows(db)
            #expect(live.count > 6)

            for (batchSize, capacity) in [(3, 1), (4, 2), (7, 1000), (500, 1)] {
                try await ProjectionRebuilder(client: db.owner, batchSize: batchSize, cacheCapacity: capacity, parallelism: 1)
                    .rebuild()
                #expect(try await rows(db) == live, "batch \(batchSize), cache \(capacity)")
            }
            // Folding on several partitions gives the serial fold's answer, evictions and reloads included.
            for (batchSize, capacity, parallelism) in [(3, 2, 2), (5, 3, 3), (500, 1000, 2), (1, 4, 4)] {
                try await ProjectionRebuilder(
                    client: db.owner, batchSize: batchSize, cacheCapacity: capacity,
                    parallelism: parallelism
                ).rebuild()
                #expect(try await rows(db) == live, "batch \(batchSize), cache \(capacity), \(parallelism) partitions")
            }
            let states = try await db.owner.query("SELECT status FROM journey_state ORDER BY 1").map {
                try $0.decode(0, as: String.self)
            }
            #expect(states.contains("completed") && states.contains { $0 != "completed" })
        }
    }

    func rows(_ db: TestDatabase) async throws -> [String] {
        let states = try await db.owner.query("SELECT to_jsonb(s)::text FROM journey_state s ORDER BY journey_id")
            .map { try $0.decode(0, as: String.self) }
        let attempts = try await db.owner.query("SELECT to_jsonb(a)::text FROM journey_attempts a ORDER BY journey_id, attempt")
            .map { try $0.decode(0, as: String.self) }
        return states + attempts
    }
}
