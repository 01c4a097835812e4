import Foundation
import JourneyDomain
import Postgres

/// The SQL of due work: copies due items from `journey_state` into `work_leases`, claims them
/// with `FOR UPDATE SKIP LOCKED` and a lease, renews, completes and releases them.
///
/// An item is `(journey, kind, attempt, due time)`. Completing marks it done whoever holds the
/// lease (the effect happened); a claim only takes unfinished items whose lease ran out, so a
/// rescue never undoes a completion. Releasing is fenced: only the holder can postpone an item.
public struct WorkQueue: Sendable {
    public let database: PostgresClient

    public init(database: PostgresClient) {
        self.database = database
    }

    /// Copies up to `limit` items due at `now` that `work_leases` does not know yet; returns how many.
    @discardableResult
    public func seed(now: Date, limit: Int) async throws -> Int {
        let rows = try await database.query("""
            INSERT INTO work_leases (journey_id, kind, attempt, due_at)
            SELECT s.journey_id, s.next_due_kind, s.current_attempt, s.next_due_at
            FROM journey_state s
            WHERE s.next_due_at <= \(now) AND s.next_due_kind IS NOT NULL
              AND NOT EXISTS (
                SELECT 1 FROM work_leases l
                WHERE l.journey_id = s.journey_id AND l.kind = s.next_due_kind
                  AND l.attempt = s.current_attempt AND l.due_at = s.next_due_at)
            ORDER BY s.next_due_at
            LIMIT \(limit)
            ON CONFLICT DO NOTHING
            RETURNING 1
            """)
        return rows.count
    }

    /// Claims up to `limit` unfinished items whose lease ran out, for `worker` until `leaseUntil`.
    public func claim(worker: String, now: Date, leaseUntil: Date, limit: Int) async throws -> [WorkItem] {
        let rows = try await database.query("""
            UPDATE work_leases w
            SET worker = \(worker), lease_until = \(leaseUntil), tries = w.tries + 1
            FROM (
                SELECT journey_id, kind, attempt, due_at FROM work_leases
                WHERE done_at IS NULL AND lease_until <= \(now) AND due_at <= \(now)
                ORDER BY lease_until, due_at
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            ) c
            WHERE w.journey_id = c.journey_id AND w.kind = c.kind AND w.attempt = c.attempt AND w.due_at = c.due_at
            RETURNING w.journey_id, w.kind, w.attempt, w.due_at, w.tries
            """)
        return try rows.map { row in
            let kind: String = try row.decode(1)
            guard let parsed = DueWork.Kind(rawValue: kind) else {
                throw WorkerError(.unreadableItem, "work_leases has an unknown kind \(kind)")
            }
            return WorkItem(journeyID: JourneyID(try row.decode(0, as: String.self)), kind: parsed,
                            attempt: try row.decode(2), dueAt: try row.decode(3), tries: try row.decode(4))
        }
    }

    /// Extends the lease of every unfinished item `worker` holds; returns how many.
    @discardableResult
    public func renew(worker: String, leaseUntil: Date) async throws -> Int {
        let rows = try await database.query("""
            UPDATE work_leases SET lease_until = \(leaseUntil)
            WHERE worker = \(worker) AND done_at IS NULL
            RETURNING 1
            """)
        return rows.count
    }

    /// Marks `item` done for good; false when it was done already (by another worker).
    @discardableResult
    public func complete(_ item: WorkItem, outcome: String, now: Date) async throws -> Bool {
        let rows = try await database.query("""
            UPDATE work_leases SET done_at = \(now), outcome = \(outcome), lease_until = \(now)
            WHERE journey_id = \(item.journeyID.rawValue) AND kind = \(item.kind.rawValue)
              AND attempt = \(item.attempt) AND due_at = \(item.dueAt) AND done_at IS NULL
            RETURNING 1
            """)
        return rows.count > 0
    }

    /// Marks many items done in one statement (`outcomes` parallel to `items`); returns how many
    /// were still unfinished.
    @discardableResult
    public func complete(_ items: [WorkItem], outcomes: [String], now: Date) async throws -> Int {
        precondition(items.count == outcomes.count, "one outcome per item")
        guard !items.isEmpty else { return 0 }
        let rows = try await database.query("""
            UPDATE work_leases w SET done_at = \(now), outcome = d.outcome, lease_until = \(now)
            FROM unnest(\(items.map(\.journeyID.rawValue))::text[], \(items.map(\.kind.rawValue))::text[],
                        \(items.map(\.attempt))::integer[], \(items.map(\.dueAt))::timestamptz[], \(outcomes)::text[])
                 AS d(journey_id, kind, attempt, due_at, outcome)
            WHERE w.journey_id = d.journey_id AND w.kind = d.kind AND w.attempt = d.attempt AND w.due_at = d.due_at
              AND w.done_at IS NULL
            RETURNING 1
            """)
        return rows.count
    }

    /// Makes `item` claimable again at `at`, if `worker` still holds it; false otherwise.
    @discardableResult
    public func release(_ item: WorkItem, worker: String, until at: Date, outcome: String) async throws -> Bool {
        let rows = try await database.query("""
            UPDATE work_leases SET worker = NULL, lease_until = \(at), outcome = \(outcome)
            WHERE journey_id = \(item.journeyID.rawValue) AND kind = \(item.kind.rawValue)
              AND attempt = \(item.attempt) AND due_at = \(item.dueAt) AND done_at IS NULL AND worker = \(worker)
            RETURNING 1
            """)
        return rows.count > 0
    }

    /// Deletes items finished before `cutoff`; returns how many.
    @discardableResult
    public func purge(finishedBefore cutoff: Date) async throws -> Int {
        let rows = try await database.query("DELETE FROM work_leases WHERE done_at < \(cutoff) RETURNING 1")
        return rows.count
    }
}
