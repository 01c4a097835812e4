import Foundation
import JourneyDomain
import Postgres
import Synchronization

/// The SQL of due work: copies due items from `journey_state` into `work_leases`, claims them
/// with `FOR UPDATE SKIP LOCKED` and a lease, renews, completes and releases them.
///
/// An item is `(journey, kind, attempt, due time)`. Completing marks it done whoever holds the
/// lease (the effect happened); a claim only takes unfinished items whose lease ran out, so a
/// rescue never undoes a completion. Releasing is fenced: only the holder can postpone an item.
public struct WorkQueue: Sendable {
    public let database: PostgresClient
    /// Where the next seed carries on: the key of the last item seeded; nil = from the top.
    private let seedCursor = SeedCursor()

    /// An item's place in the seed's order.
    struct SeedKey: Sendable {
        /// `due_at` as PostgreSQL prints it (bound back without rounding).
        let dueAt: String
        let journeyID: String
    }

    public init(database: PostgresClient) {
        self.database = database
    }

    /// Copies up to `limit` items due at `now` that `work_leases` does not know yet; returns how many.
    /// Carries on after the last item the previous seed copied while seeds come back full, and
    /// starts from the top again after one that does not (so nothing due is left behind).
    @discardableResult
    public func seed(now: Date, limit: Int) async throws -> Int {
        let after = seedCursor.key.withLock { $0 }
        guard let row = try await database.query(WorkersStatements.seed(now: now, after: after, limit: limit)).first else {
            return 0
        }
        let count: Int = try row.decode(0)
        let dueAt: String? = try row.decode(1)
        let journeyID: String? = try row.decode(2)
        let last = dueAt.flatMap { at in journeyID.map { SeedKey(dueAt: at, journeyID: $0) } }
        seedCursor.key.withLock { $0 = count < limit ? nil : last }
        return count
    }

    /// Claims up to `limit` unfinished items whose lease ran out, for `worker` until `leaseUntil`.
    public func claim(worker: String, now: Date, leaseUntil: Date, limit: Int) async throws -> [WorkItem] {
        let rows = try await database.query(
            WorkersStatements.claim(worker: worker, now: now, leaseUntil: leaseUntil, limit: limit))
        return try rows.map { row in
            let kind: String = try row.decode(1)
            guard let parsed = DueWork.Kind(rawValue: kind) else {
                throw WorkerError(.unreadableItem, "work_leases has an unknown kind \(kind)")
            }
            return WorkItem(
                journeyID: JourneyID(try row.decode(0, as: String.self)), kind: parsed,
                attempt: try row.decode(2), dueAt: try row.decode(3), tries: try row.decode(4))
        }
    }

    /// Extends the lease of every unfinished item `worker` holds; returns how many.
    @discardableResult
    public func renew(worker: String, leaseUntil: Date) async throws -> Int {
        let rows = try await database.query(WorkersStatements.renew(worker: worker, leaseUntil: leaseUntil))
        return rows.count
    }

    /// Marks `item` done for good; false when it was done already (by another worker).
    @discardableResult
    public func complete(_ item: WorkItem, outcome: String, now: Date) async throws -> Bool {
        let rows = try await database.query(WorkersStatements.completeOne(item, outcome: outcome, now: now))
        return rows.count > 0
    }

    /// Marks many items done in one statement (`outcomes` parallel to `items`); returns how many
    /// were still unfinished.
    @discardableResult
    public func complete(_ items: [WorkItem], outcomes: [String], now: Date) async throws -> Int {
        precondition(items.count == outcomes.count, "one outcome per item")
        guard !items.isEmpty else { return 0 }
        let rows = try await database.query(WorkersStatements.completeMany(items, outcomes: outcomes, now: now))
        return rows.count
    }

    /// Makes `item` claimable again at `at`, if `worker` still holds it; false otherwise.
    @discardableResult
    public func release(_ item: WorkItem, worker: String, until at: Date, outcome: String) async throws -> Bool {
        let rows = try await database.query(WorkersStatements.release(item, worker: worker, until: at, outcome: outcome))
        return rows.count > 0
    }

    /// Deletes items finished before `cutoff`; returns how many.
    @discardableResult
    public func purge(finishedBefore cutoff: Date) async throws -> Int {
        let rows = try await database.query(WorkersStatements.purge(finishedBefore: cutoff))
        return rows.count
    }

    /// Open items whose last try failed with an error and that wait for another (for `/metrics`).
    public func failingCount() async throws -> Int64 {
        try await database.query(WorkersStatements.failingCount).first?.decode(0) ?? 0
    }
}

/// The seed's place, shared by every copy of a ``WorkQueue``.
private final class SeedCursor: Sendable {
    let key = Mutex<WorkQueue.SeedKey?>(nil)
}
