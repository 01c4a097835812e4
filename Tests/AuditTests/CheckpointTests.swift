import Audit
import Cryptography
import EventStore
import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
import Testing

@Suite struct CheckpointTests {
    let key = Ed25519PrivateKey.generate()
    var keys: AuditKeys { AuditKeys(signingKey: key) }

    /// Two journeys and a signed checkpoint over them.
    /// Runs `body` on a database holding two journeys and a checkpoint of them, then drops it.
    func seeded(_ body: (TestDatabase, [JourneyID], AuditCheckpoint) async throws -> Void) async throws {
        try await TestDatabase.with { db in
            let ids = [JourneyID(UUID().uuidString.lowercased()), JourneyID(UUID().uuidString.lowercased())]
            for id in ids { try await record(approvedOnSecondAttempt(id), journey: id, db: db) }
            try await db.waitUntilReadable()
            let checkpoint = try await SignedCheckpointStore(client: db.app).create(signingWith: key)
            try await body(db, ids, checkpoint)
        }
    }

    @Test func aCheckpointSummarizesTheLogAndStillHoldsAfterAppends() async throws {
        try await seeded { db, ids, first in
            let events = try await db.app.query("SELECT count(*) FROM events").first!.decode(0, as: Int64.self)
            #expect(first.summary.events == events)
            #expect(first.summary.streams == 2)
            #expect(first.previousSignature == AuditCheckpoint.genesis)
            #expect(first.hasValidSignature)
            #expect(String(decoding: first.payload, as: UTF8.self).contains("events=\(events)"))

            // Events appended after the cut do not disturb it.
            let third = JourneyID(UUID().uuidString.lowercased())
            try await record(Array(approvedOnSecondAttempt(third).prefix(3)), journey: third, db: db)
            try await db.waitUntilReadable()
            let second = try await SignedCheckpointStore(client: db.app).create(signingWith: key)
            #expect(second.previousSignature == first.signatureDigest)
            #expect(second.summary.streams == 3)
            #expect(second.summary.cut > first.summary.cut)
            let report = try await CheckpointVerifier(client: db.app, keys: keys).verify()
            #expect(report.isIntact, "\(report.failures)")
            #expect(report.checked == 2)
            #expect(report.lastGood?.id == second.id)
            #expect(
                try await SignedCheckpointStore(client: db.app).latest(covering: StreamName.journey(ids[0].rawValue))?.id
                    == second.id)
        }
    }

    @Test func aRechainedAlterationThatFoolsTheChainIsCaughtByTheCheckpoint() async throws {
        try await seeded { db, ids, checkpoint in
            // Rewrite the last event of a stream and its hash and the stream head: the chain still links.
            let stream = StreamName.journey(ids[1].rawValue).rawValue
            try await tamper(
                db,
                """
                WITH last AS (SELECT position FROM events WHERE stream_name = '\(stream)' ORDER BY stream_version DESC LIMIT 1)
                UPDATE events SET actor = 'mallory',
                    hash = event_hash(previous_hash, stream_name, stream_version, event_id, event_type, data,
                                      correlation_id, causation_id, 'mallory', recorded_at)
                WHERE position = (SELECT position FROM last);
                UPDATE streams SET head_hash = (SELECT hash FROM events WHERE stream_name = '\(stream)'
                                                ORDER BY stream_version DESC LIMIT 1) WHERE stream_name = '\(stream)';
                """)
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
            let report = try await CheckpointVerifier(client: db.app, keys: keys).verify()
            #expect(report.failures.map(\.checkpointID) == [checkpoint.id])
            #expect(report.failures.first?.reason.contains("altered") == true)
        }
    }

    @Test func aRemovedEventIsCaughtByTheCheckpoint() async throws {
        try await seeded { db, ids, checkpoint in
            let stream = StreamName.journey(ids[0].rawValue).rawValue
            try await tamper(
                db,
                """
                DELETE FROM events WHERE stream_name = '\(stream)'
                  AND stream_version = (SELECT max(stream_version) FROM events WHERE stream_name = '\(stream)');
                UPDATE streams SET version = version - 1, head_hash = (SELECT hash FROM events WHERE stream_name = '\(stream)'
                                                ORDER BY stream_version DESC LIMIT 1) WHERE stream_name = '\(stream)';
                """)
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
            let report = try await CheckpointVerifier(client: db.app, keys: keys).verify()
            #expect(report.failures.map(\.checkpointID) == [checkpoint.id])
            #expect(report.failures.first?.reason.contains("the checkpoint signed \(checkpoint.summary.events)") == true)
        }
    }

    @Test func forgedTamperedAndRemovedCheckpointsAreDetected() async throws {
        try await seeded { db, _, first in
            // Mallory signs a checkpoint of her own, properly chained.
            let mallory = Ed25519PrivateKey.generate()
            let forged = try await SignedCheckpointStore(client: db.app).create(signingWith: mallory)
            var report = try await CheckpointVerifier(client: db.app, keys: keys).verify()
            #expect(report.failures.map(\.checkpointID) == [forged.id])
            #expect(report.failures.first?.reason.contains("untrusted key") == true)
            // Trusting her key explicitly accepts it.
            report = try await CheckpointVerifier(client: db.app, keys: AuditKeys(signingKey: key, trusted: [mallory.publicKey]))
                .verify()
            #expect(report.isIntact)
            // Without configured keys, every checkpoint is signed by a key not trusted: it fails...
            report = try await CheckpointVerifier(client: db.app, keys: AuditKeys(signingKey: nil)).verify()
            #expect(report.failures.count == 2)
            #expect(report.failures.allSatisfy { $0.reason.contains("not configured as trusted") })
            #expect(!report.trustedKeys)
            // ...unless unpinned keys are allowed: then signatures are checked against the stored keys only.
            report = try await CheckpointVerifier(
                client: db.app, keys: AuditKeys(signingKey: nil),
                configuration: .init(allowUnpinnedKeys: true)
            ).verify()
            #expect(report.isIntact)
            #expect(report.unpinned == 2)
            // Trusting one key and allowing unpinned ones accepts the other with a count.
            report = try await CheckpointVerifier(client: db.app, keys: keys, configuration: .init(allowUnpinnedKeys: true))
                .verify()
            #expect(report.isIntact)
            #expect(report.unpinned == 1)

            // A stored count changed behind the signature.
            try await tamper(db, "UPDATE audit_checkpoints SET events = events + 1 WHERE id = \(first.id)")
            report = try await CheckpointVerifier(client: db.app, keys: AuditKeys(signingKey: key, trusted: [mallory.publicKey]))
                .verify()
            #expect(report.failures.first?.checkpointID == first.id)
            #expect(report.failures.first?.reason.contains("signature does not match") == true)

            // A checkpoint removed from the chain.
            try await tamper(db, "DELETE FROM audit_checkpoints WHERE id = \(first.id)")
            report = try await CheckpointVerifier(client: db.app, keys: AuditKeys(signingKey: key, trusted: [mallory.publicKey]))
                .verify()
            #expect(report.failures.map(\.checkpointID) == [forged.id])
            #expect(report.failures.first?.reason.contains("removed") == true)
        }
    }

    @Test func checkpointsAreAppendOnlyForTheAppAndTheOwner() async throws {
        try await seeded { db, _, checkpoint throws in
            for client in [db.app, db.owner] {
                for sql in [
                    "UPDATE audit_checkpoints SET events = 0", "DELETE FROM audit_checkpoints", "TRUNCATE audit_checkpoints",
                ] {
                    let error = await #expect(throws: PostgresError.self) {
                        try await client.query(PostgresQuery(unsafeSQL: sql))
                    }
                    #expect(error?.sqlState == "42501", "\(sql)")
                }
            }
            #expect(try await SignedCheckpointStore(client: db.app).all() == [checkpoint])
            // The chain refuses a fork: a second checkpoint claiming the same predecessor.
            let fork = await #expect(throws: PostgresError.self) {
                try await db.app.query(
                    """
                    INSERT INTO audit_checkpoints (created_at, transaction_id, position, streams, events, heads_digest,
                        previous_signature, public_key, signature)
                    VALUES (now(), '0', 0, 0, 0, \(Data(count: 32)), \(AuditCheckpoint.genesis), \(Data(count: 32)), \(Data(count: 64)))
                    """)
            }
            #expect(fork?.sqlState == "23505")
        }
    }

    @Test func anEmptyLogCanBeCheckpointed() async throws {
        try await TestDatabase.with { db in
            let checkpoint = try await SignedCheckpointStore(client: db.app).create(signingWith: key)
            #expect(checkpoint.summary.events == 0)
            #expect(checkpoint.summary.cut == .start)
            #expect(try await CheckpointVerifier(client: db.app, keys: keys).verify().isIntact)
        }
    }

    /// The cut is the greatest (transaction id, position) below the horizon as numbers: sorted
    /// as text, transaction 99 came after 100 and checkpoints stopped short of newer events.
    /// (Ids 99 and 100, not 999 and 1000: a fresh test cluster may not have reached xid 1000 yet,
    /// and an id above the horizon is not readable.)
    @Test func theCutComparesTransactionIDsAsNumbersAcrossADigitBoundary() async throws {
        try await TestDatabase.with { db in
            try await db.superuser.withConnection { connection in
                try connection.execute(
                    unsafeSQL: """
                        INSERT INTO events (transaction_id, stream_name, stream_version, event_id, event_type, data,
                                            recorded_at, previous_hash, hash)
                        VALUES ('99', 's-a', 1, gen_random_uuid(), 'T', '{}', now(), '\\x00', '\\x00'),
                               ('100', 's-b', 1, gen_random_uuid(), 'T', '{}', now(), '\\x00', '\\x00')
                        """)
            }
            let cut = try await db.owner.withConnection { try LogSummary.currentCut(on: $0) }
            #expect(cut.transactionID == 100)
            let summary = try await db.owner.withConnection { try LogSummary.compute(upTo: cut, on: $0) }
            #expect(summary.events == 2 && summary.streams == 2)
        }
    }

    /// A checkpoint covers a stream when its cut includes the stream's first event; the newest wins.
    @Test func latestCoveringIsTheNewestCheckpointWhoseCutIncludesTheStream() async throws {
        try await seeded { db, ids, first in
            let store = SignedCheckpointStore(client: db.app)
            let third = JourneyID(UUID().uuidString.lowercased())
            try await record(Array(approvedOnSecondAttempt(third).prefix(3)), journey: third, db: db)
            try await db.waitUntilReadable()
            #expect(try await store.latest(covering: StreamName.journey(third.rawValue)) == nil)
            #expect(try await store.latest(covering: StreamName.journey(ids[1].rawValue))?.id == first.id)
            let second = try await store.create(signingWith: key)
            #expect(try await store.latest(covering: StreamName.journey(third.rawValue))?.id == second.id)
            #expect(try await store.latest(covering: StreamName.journey(ids[1].rawValue))?.id == second.id)
            #expect(try await store.latest(covering: StreamName("no-such-stream")) == nil)
        }
    }

    /// Covering compares the cut and the stream's first event as numbers: as text, a cut at
    /// transaction 99 would seem to include a stream that began in transaction 100.
    @Test func latestCoveringComparesTransactionIDsAsNumbers() async throws {
        try await TestDatabase.with { db in
            func insert(_ transactionID: String, _ stream: String) async throws {
                try await db.superuser.withConnection { connection in
                    try connection.execute(
                        unsafeSQL: """
                            INSERT INTO events (transaction_id, stream_name, stream_version, event_id, event_type, data,
                                                recorded_at, previous_hash, hash)
                            VALUES ('\(transactionID)', '\(stream)', 1, gen_random_uuid(), 'T', '{}', now(), '\\x00', '\\x00')
                            """)
                }
            }
            try await insert("99", "s-a")
            let store = SignedCheckpointStore(client: db.app)
            let checkpoint = try await store.create(signingWith: key)
            #expect(checkpoint.summary.cut.transactionID == 99)
            try await insert("100", "s-b")
            #expect(try await store.latest(covering: StreamName("s-a"))?.id == checkpoint.id)
            #expect(try await store.latest(covering: StreamName("s-b")) == nil)
        }
    }
}
