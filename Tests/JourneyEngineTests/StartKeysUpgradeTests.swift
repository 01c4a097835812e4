import Foundation
import JourneyDomain
@testable import JourneyEngine
import JourneyTesting
import Migrations
import Postgres
import Testing

/// Migration 0046 on a database whose keys kept HTTP answers: completed keys are released (a
/// retry answers from the journey's state, as after retention), keys in flight are left alone.
@Suite struct StartKeysUpgradeTests {
    @Test func completedKeysAreReleasedAndARetryAnswersFromTheJourney() async throws {
        let db = try await TestDatabase.create(migrated: false)
        do {
            try await Migrator(files: SchemaFiles.all.filter { ($0.version ?? 0) < 46 }).migrate(db.owner)
            let apiKey = UUID()
            let (done, running) = (Data(repeating: 1, count: 32), Data(repeating: 2, count: 32))
            try await db.owner.query(
                """
                INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                VALUES (\(apiKey), 'company', 'abcdefgh', \(Data(repeating: 9, count: 32)), ARRAY['journeys:write'])
                """)
            try await db.owner.query(
                """
                INSERT INTO idempotency_keys
                    (api_key_id, key, request_hash, state, journey_id, response_status, response_body, completed_at)
                VALUES (\(apiKey), 'done', \(done), 'completed', 'j-done', 201, '{"journeyID":"j-done"}', now())
                """)
            try await db.owner.query(
                """
                INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, journey_id, owner, lease_until)
                VALUES (\(apiKey), 'running', \(running), 'in_progress', 'j-running', \(UUID()), now() + interval '1 hour')
                """)

            try await Migrator().migrate(db.owner)

            let keys = StartKeys(database: db.app, configuration: IdempotencyConfiguration())
            let doneKey = IdempotencyKey(scope: apiKey, key: "done", requestHash: done)
            let released = try #require(try await keys.lookup(doneKey))
            #expect(released.state == .released)
            #expect(released.outcome == nil)
            #expect(released.journeyID == "j-done")
            let inFlight = try #require(
                try await keys.lookup(IdempotencyKey(scope: apiKey, key: "running", requestHash: running)))
            #expect(inFlight.state == .inProgress)
            #expect(inFlight.lapsed == false)

            // A retry of the released key takes it over and answers from its journey, once.
            let recovered = try await keys.replay(doneKey) { id in
                #expect(id == JourneyID("j-done"))
                return StartKeysTests.issued(id.rawValue)
            }
            #expect(StartKeysTests.webAppToken(recovered) == "wat-j-done")
            #expect(try await keys.lookup(doneKey)?.state == .completed)
            await db.drop()
        } catch {
            await db.drop()
            throw error
        }
    }
}
