import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// Regression: the global order once sorted transaction ids as text, so a reader that crossed
/// from 999 to 1000 skipped events. Appends on both sides of a digit boundary must read in
/// numeric order.
@Suite struct GlobalOrderTests {
    @Test func transactionIDsSortNumericallyAcrossADigitBoundary() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let current = try await db.owner.query("SELECT pg_current_xact_id()::text").first!.decode(0, as: UInt64.self)
            var boundary: UInt64 = 10
            while boundary <= current + 20 { boundary *= 10 }
            let burn = Int(boundary - current) - 6
            if burn > 0, burn < 200_000 {
                // Short committed transactions, each drawing one id: the horizon keeps moving, so
                // readers elsewhere in the cluster are never held back (one long transaction with
                // many subtransactions once stalled every other reader).
                try await db.owner.withConnection { connection in
                    try connection.execute(
                        unsafeSQL: """
                            DO $$ BEGIN FOR i IN 1..\(burn) LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$;
                            """)
                }
            }
            var appended: [UUID] = []
            for n in 0..<12 {
                let e = event(n)
                appended.append(e.id)
                try await store.append([e], to: stream(), expectedVersion: .noStream)
            }
            let read = try await readAll(store, after: .start, count: appended.count)
            #expect(read.map(\.id) == appended)
            let xids = read.map(\.transactionID)
            #expect(xids == xids.sorted())
        }
    }
}
