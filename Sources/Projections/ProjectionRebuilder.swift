import EventStore
import Foundation
import JourneyDomain
import Postgres

/// Rebuilds a projection from position zero into fresh tables and swaps them in atomically.
///
/// 1. `journey_state_rebuild` / `journey_attempts_rebuild` are (re)created empty, shaped like the
///    live tables (`LIKE ... INCLUDING ALL`: columns, defaults, indexes), and so are the daily
///    rollups' twins (``DailyRollup``), filled from the rebuilt tables before the swap. Their
///    secondary indexes (but the unique ones and the one with a JSON path condition) are dropped
///    and built again, with the same definitions, once every row is in.
/// 2. Every readable event is folded, reporting `progress(done, total)`, pipelined: the next batch
///    is read on one connection while this one is folded by `parallelism` partitions at once (a
///    journey's events all go to one partition, by a hash of its id), each folding from its own
///    cache of recent states. A state leaves the cache (least recently changed first, or at the
///    end) as one row per table written with `COPY` in text format, a partition's write running
///    while it folds on; a journey whose row was written and that changes again is reloaded and
///    upserted as the live projection does. The live runner keeps applying to the live tables
///    meanwhile and readers keep reading them.
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
    /// Journey states kept in memory (over all partitions). Default 50,000.
    public let cacheCapacity: Int
    /// Partitions folding at once. Default: the machine's cores, at most 4.
    public let parallelism: Int

    /// Events per read batch unless told otherwise.
    public static let defaultBatchSize = 2000

    /// The machine's cores, at most 4.
    public static var defaultParallelism: Int { max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) }

    public init(
        client: PostgresClient, batchSize: Int = ProjectionRebuilder.defaultBatchSize, cacheCapacity: Int = 50_000,
        parallelism: Int = ProjectionRebuilder.defaultParallelism
    ) {
        self.client = client
        self.batchSize = max(1, batchSize)
        self.cacheCapacity = cacheCapacity
        self.parallelism = max(1, parallelism)
    }

    /// The `batchSize` events after `checkpoint`, read on a pooled connection.
    private func read(after checkpoint: GlobalCheckpoint?) async throws -> [EventStore.FoldEvent]? {
        guard let checkpoint else { return nil }
        return try await client.withConnection { [batchSize] connection in
            try EventStore.readAllForFold(after: checkpoint, limit: batchSize, on: connection)
        }
    }

    /// Known projection names.
    public static let names = [JourneyStateProjection.name]

    /// Rebuilds `name`; returns the checkpoint the swapped-in tables reflect.
    @discardableResult
    public func rebuild(
        name: String = JourneyStateProjection.name,
        progress: (@Sendable (_ done: Int, _ total: Int) throws -> Void)? = nil
    ) async throws -> GlobalCheckpoint {
        guard name == JourneyStateProjection.name else {
            throw Failure(description: "unknown projection \(name); known: \(Self.names.joined(separator: ", "))")
        }
        let live = JourneyStateProjection.Tables.live
        let fresh = JourneyStateProjection.Tables.rebuild
        let (columns, deferredIndexes) = try await client.withConnection { connection in
            try connection.execute(unsafeSQL: ProjectionsStatements.createRebuildTables(fresh, like: live))
            try connection.execute(unsafeSQL: ProjectionsStatements.createRebuildRollups(fresh, like: live))
            // Each state is a few kB of JSON, compressed into TOAST: lz4 costs a fraction of pglz.
            if try connection.query(ProjectionsStatements.lz4Available).first != nil {
                try connection.execute(unsafeSQL: ProjectionsStatements.compressStateWithLZ4(fresh.state))
            }
            // Secondary indexes are built once the rows are in (see `deferredIndexes`).
            let deferred = try connection.query(ProjectionsStatements.deferredIndexes(fresh))
                .map { (try $0.decode(0, as: String.self), try $0.decode(1, as: String.self)) }
            for (name, _) in deferred { try connection.execute(unsafeSQL: ProjectionsStatements.dropIndex(name)) }
            return (try ReadModelCopy.columns(of: fresh, on: connection), deferred.map(\.1))
        }
        let total = try await client.withConnection { try EventStore.readableEventCount(on: $0) }
        var checkpoint = GlobalCheckpoint.start
        var done = 0
        try progress?(0, total)
        // Readable events never appear before ones already read, so reading ahead of the writes
        // returns what a transaction would have read; the rebuild tables have no other writer.
        let partitions = (0..<parallelism).map { _ in
            RebuildPartition(
                client: client, tables: fresh, columns: columns,
                cacheCapacity: max(1, cacheCapacity / parallelism))
        }
        do {
            var batch = try await read(after: checkpoint)!
            while true {
                let last = batch.last?.checkpoint
                let readAhead = batch.count == batchSize ? last : nil
                async let following = read(after: readAhead)
                let slices = RebuildPartition.split(batch, into: partitions.count)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (partition, slice) in zip(partitions, slices) where !slice.isEmpty {
                        group.addTask { try await partition.fold(slice) }
                    }
                    try await group.waitForAll()
                }
                if let last { checkpoint = last }
                done += batch.count
                try progress?(done, max(total, done))
                guard let next = try await following else { break }
                batch = next
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for partition in partitions { group.addTask { try await partition.finish() } }
                try await group.waitForAll()
            }
        } catch {
            for partition in partitions { await partition.abandon() }
            throw error
        }
        try await client.transaction { [deferredIndexes] connection in
            try connection.execute(unsafeSQL: ProjectionsStatements.indexBuildMemory)
            for definition in deferredIndexes { try connection.execute(unsafeSQL: definition) }
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
