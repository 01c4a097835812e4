import EventStore
import JourneyDomain
import Postgres
import Synchronization

/// One share of a rebuild's journeys (those whose id hashes to it): decodes and folds their
/// events from its own cache of recent states, and writes the states it evicts to the rebuild
/// tables with `COPY` (new rows) or the live projection's upsert (rows written earlier and
/// reloaded), one write in flight while it folds the next batch: a write starts once the last
/// one is done, or when `flushBytes` are waiting. Used by one task at a time.
final class RebuildPartition: @unchecked Sendable {
    let client: PostgresClient
    let tables: JourneyStateProjection.Tables
    /// Bytes of `COPY` text gathered before a write starts.
    let flushBytes: Int
    private var cache: StateCache
    private var copy: ReadModelCopy
    private var updates: [JourneyStateProjection.Changed] = []
    private var writing: Task<Void, any Error>?
    /// The write in flight (if any) has ended.
    private let idle = Atomic<Bool>(true)

    init(
        client: PostgresClient, tables: JourneyStateProjection.Tables, columns: ReadModelCopy.Columns,
        cacheCapacity: Int, flushBytes: Int = 8 << 20
    ) {
        self.client = client
        self.tables = tables
        self.flushBytes = flushBytes
        cache = StateCache(capacity: cacheCapacity)
        copy = ReadModelCopy(columns: columns)
    }

    /// The partition of `journeyID` among `count` (FNV-1a of its UTF-8 bytes).
    static func index(of journeyID: Substring, among count: Int) -> Int {
        guard count > 1 else { return 0 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in journeyID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(count))
    }

    /// Splits `events` (global order) into `count` partitions of journey events, order kept;
    /// events of other streams are left out (the projection ignores them).
    static func split(_ events: [EventStore.FoldEvent], into count: Int) -> [[EventStore.FoldEvent]] {
        var slices = Array(repeating: [EventStore.FoldEvent](), count: count)
        let prefix = StreamName.journeyPrefix
        for event in events {
            let name = event.streamName
            guard name.hasPrefix(prefix) else { continue }
            slices[index(of: name.dropFirst(prefix.count), among: count)].append(event)
        }
        return slices
    }

    /// Folds `events` (this partition's share of a batch, in global order).
    func fold(_ events: [EventStore.FoldEvent]) async throws {
        let batch = try JourneyStateProjection.Batch(folding: events)
        var states: [String: JourneyState] = [:]
        var reload: [String] = []
        for id in batch.journeyIDs {
            if let state = cache[id] { states[id] = state } else if cache.evicted.contains(id) { reload.append(id) }
        }
        var reloaded: Set<String> = []
        if !reload.isEmpty {
            // Its row may still be in the gathered text or in flight: written and committed first.
            try await flush()
            try await settle()
            let stored = try await client.withConnection { [tables, reload] in
                try JourneyStateProjection.load(reload, tables: tables, on: $0)
            }
            states.merge(stored) { _, loaded in loaded }
            reloaded = Set(stored.keys)
        }
        for journey in try JourneyStateProjection.fold(batch, into: &states) {
            cache.store(journey.state, position: journey.position, for: journey.id, stored: reloaded.contains(journey.id))
        }
        try gather(cache.evict())
        if copy.byteCount >= flushBytes || updates.count >= 1000 || idle.load(ordering: .acquiring) { try await flush() }
    }

    /// Writes every cached state and waits for the writes.
    func finish() async throws {
        try gather(cache.evict(all: true))
        try await flush()
        try await settle()
    }

    /// Waits for the write in flight, ignoring its outcome (after a failure elsewhere).
    func abandon() async {
        _ = await writing?.result
        writing = nil
    }

    private func gather(_ evicted: [(id: String, entry: StateCache.Entry)]) throws {
        for (id, entry) in evicted {
            if entry.stored {
                updates.append(JourneyStateProjection.Changed(id: id, state: entry.state, position: entry.position))
            } else {
                try copy.append(id: id, state: entry.state, position: entry.position)
            }
        }
    }

    /// Starts writing what was gathered (after the previous write).
    private func flush() async throws {
        guard !copy.isEmpty || !updates.isEmpty else { return }
        try await settle()
        let rows = copy.take()
        let columns = copy.columns
        let upserts = try JourneyStateProjection.Rows(updates)
        updates.removeAll(keepingCapacity: true)
        idle.store(false, ordering: .releasing)
        writing = Task { [client, tables] in
            defer { self.idle.store(true, ordering: .releasing) }
            try await client.transaction { connection in
                // A batch lost in a crash only restarts the rebuild: no need to wait for its WAL flush.
                try connection.execute(unsafeSQL: ProjectionsStatements.asynchronousCommit)
                try ReadModelCopy.write(rows, columns: columns, tables: tables, on: connection)
                if let upserts { try JourneyStateProjection.write(upserts, tables: tables, on: connection) }
            }
        }
    }

    private func settle() async throws {
        guard let writing else { return }
        self.writing = nil
        try await writing.value
    }
}
