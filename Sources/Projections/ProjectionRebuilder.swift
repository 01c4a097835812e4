import EventStore
import Foundation
import JourneyDomain
import Postgres

/// Rebuilds a projection from position zero into fresh tables and swaps them in atomically.
///
/// 1. `journey_state_rebuild` / `journey_attempts_rebuild` are (re)created empty, shaped like the
///    live tables (`LIKE ... INCLUDING ALL`: columns, defaults, indexes), and so are the daily
///    rollups' twins (``DailyRollup``), filled from the rebuilt tables before the swap.
/// 2. Every readable event is applied to them in batches (one transaction each), reporting
///    `progress(done, total)`, pipelined: reading the next batch, folding this one from a cache of
///    recent states, and writing the previous one overlap. The live runner keeps applying to the
///    live tables meanwhile and readers keep reading them.
/// 3. One transaction takes the projection's checkpoint row lock (waiting for the live runner's
///    current batch; the runner then finds the row locked and skips), applies the events that
///    arrived since, renames the rebuilt tables over the live ones, grants SELECT to
///    `journeys_app`, drops the old tables and stores the rebuilt checkpoint. Readers see the old
///    tables or the new ones, never a mix.
///
/// A rebuild that is killed (or whose `progress` callback throws) leaves the live tables and the
/// checkpoint untouched; running it again starts over from empty rebuild tables.
/// Runs as the schema owner (`DATABASE_ADMIN_URL`).
public struct ProjectionRebuilder: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let client: PostgresClient
    public let batchSize: Int
    /// Journey states kept in memory between batches. Default 20,000.
    public let cacheCapacity: Int

    /// Events per batch transaction unless told otherwise.
    public static let defaultBatchSize = 2000

    public init(client: PostgresClient, batchSize: Int = ProjectionRebuilder.defaultBatchSize, cacheCapacity: Int = 20_000) {
        self.client = client
        self.batchSize = batchSize
        self.cacheCapacity = cacheCapacity
    }

    /// The `batchSize` events after `checkpoint`, read on a pooled connection and decoded off it.
    private func prepared(after checkpoint: GlobalCheckpoint?) async throws -> JourneyStateProjection.Batch? {
        guard let checkpoint else { return nil }
        let events = try await client.withConnection { [batchSize] connection in
            try EventStore.readAll(after: checkpoint, limit: batchSize, on: connection)
        }
        return try JourneyStateProjection.Batch(events: events)
    }

    /// Known projection names.
    public static let names = [JourneyStateProjection.name]

    /// Rebuilds `name`; returns the checkpoint the swapped-in tables reflect.
    @discardableResult
    public func rebuild(name: String = JourneyStateProjection.name,
                        progress: (@Sendable (_ done: Int, _ total: Int) throws -> Void)? = nil) async throws -> GlobalCheckpoint {
        guard name == JourneyStateProjection.name else {
            throw Failure(description: "unknown projection \(name); known: \(Self.names.joined(separator: ", "))")
        }
        let live = JourneyStateProjection.Tables.live
        let fresh = JourneyStateProjection.Tables.rebuild
        try await client.withConnection { connection in
            try connection.execute(unsafeSQL: ProjectionsStatements.createRebuildTables(fresh, like: live))
            try connection.execute(unsafeSQL: ProjectionsStatements.createRebuildRollups(fresh, like: live))
            // Each state is a few kB of JSON, compressed into TOAST: lz4 costs a fraction of pglz.
            if try connection.query(ProjectionsStatements.lz4Available).first != nil {
                try connection.execute(unsafeSQL: ProjectionsStatements.compressStateWithLZ4(fresh.state))
            }
        }
        let total = try await EventStore(client: client).readableEventCount()
        var checkpoint = GlobalCheckpoint.start
        var done = 0
        try progress?(0, total)
        // Pipelined, three batches in flight: batch k+1 is read and decoded on one connection
        // while batch k is folded and encoded here and batch k-1 is written on another. Readable
        // events never appear before ones already read, so reading ahead of the writes returns
        // what a transaction would have read. Folding starts from the cache of recent states
        // (the rebuild tables have no other writer); an evicted journey is reloaded once the
        // writes in flight have committed.
        var cache = StateCache(capacity: cacheCapacity)
        var batch = try await prepared(after: checkpoint)!
        try await withThrowingTaskGroup(of: Void.self) { writes in
            var writing = false
            while true {
                let last = batch.events.last?.checkpoint
                let readAhead = batch.events.count == batchSize ? last : nil
                async let following = prepared(after: readAhead)
                let ids = batch.journeyIDs
                var states: [String: JourneyState] = [:]
                for id in ids { if let state = cache[id] { states[id] = state } }
                let reload = ids.filter { cache.evicted.contains($0) }
                if !reload.isEmpty {
                    if writing { try await writes.next(); writing = false }
                    let stored = try await client.withConnection { try JourneyStateProjection.load(reload, tables: fresh, on: $0) }
                    states.merge(stored) { _, loaded in loaded }
                }
                let changed = try JourneyStateProjection.fold(batch, into: &states)
                for journey in changed { cache.store(journey.state, for: journey.id) }
                let rows = try JourneyStateProjection.Rows(changed)
                if writing { try await writes.next() }
                writing = rows != nil
                if let rows {
                    writes.addTask { [client] in
                        try await client.transaction { connection in
                            // A batch lost in a crash only restarts the rebuild: no need to wait for its WAL flush.
                            try connection.execute(unsafeSQL: ProjectionsStatements.asynchronousCommit)
                            try JourneyStateProjection.write(rows, tables: fresh, on: connection)
                        }
                    }
                }
                if let last { checkpoint = last }
                done += batch.events.count
                try progress?(done, max(total, done))
                guard let next = try await following else { break }
                batch = next
            }
            try await writes.waitForAll()
        }
        // The rollups of everything written so far; the swap's tail keeps them as it applies.
        try await client.withConnection { try DailyRollup.fill(fresh, on: $0) }
        // Swap: one transaction, holding the checkpoint row against the live runner.
        let final = try await client.transaction { [checkpoint, batchSize] connection -> (GlobalCheckpoint, Int) in
            _ = try CheckpointStore.lock(name, wait: true, on: connection)
            var checkpoint = checkpoint
            var tail = 0
            while true {
                let events = try EventStore.readAll(after: checkpoint, limit: batchSize, on: connection)
                guard let last = events.last else { break }
                try JourneyStateProjection.apply(events, tables: fresh, on: connection)
                checkpoint = last.checkpoint
                tail += events.count
            }
            // `LIKE` names the copied indexes after their columns; pair each with the live index of
            // the same definition so the swapped-in tables keep the migrations' index names.
            let pairs = try connection.query(ProjectionsStatements.indexPairs(live: live, fresh: fresh))
                .map { (try $0.decode(0, as: String.self), try $0.decode(1, as: String.self)) }
            try connection.execute(unsafeSQL: ProjectionsStatements.swap(fresh, into: live))
            for (liveName, freshName) in pairs {
                try connection.execute(unsafeSQL: ProjectionsStatements.renameIndex(freshName, to: liveName))
            }
            try connection.execute(unsafeSQL: ProjectionsStatements.swapRollups(fresh, into: live))
            try CheckpointStore.store(name, checkpoint, on: connection)
            return (checkpoint, tail)
        }
        done += final.1
        if final.1 > 0 { try? progress?(done, max(total, done)) }
        return final.0
    }
}
