import Postgres

/// Follows the global order from a checkpoint: NOTIFY wakes it, polling is the source of truth.
///
/// Every batch is re-read from the database after the last delivered checkpoint, so a lost
/// notification (reconnect, server restart) only delays delivery by at most `pollInterval`.
public struct EventSubscription: Sendable {
    public struct Configuration: Sendable {
        /// Longest wait between reads when no notification arrives. Default 0.5 s.
        public var pollInterval: Double = 0.5
        /// Events per read. Default 500.
        public var batchSize: Int = 500
        /// Use LISTEN/NOTIFY as a wake-up. Default true.
        public var listen: Bool = true
        public init(pollInterval: Double = 0.5, batchSize: Int = 500, listen: Bool = true) {
            self.pollInterval = pollInterval
            self.batchSize = batchSize
            self.listen = listen
        }
    }

    public let store: EventStore
    public let configuration: Configuration

    public init(store: EventStore, configuration: Configuration = Configuration()) {
        self.store = store
        self.configuration = configuration
    }

    /// Delivers batches after `checkpoint` to `handler` until cancelled or the handler throws.
    /// Read errors (e.g. the database restarting) are retried after `pollInterval`.
    public func run(after checkpoint: GlobalCheckpoint,
                    _ handler: @escaping @Sendable ([RecordedEvent]) async throws -> Void) async throws {
        let doorbell = Doorbell()
        try await withThrowingTaskGroup(of: Void.self) { group in
            if configuration.listen {
                let listener = PostgresListener(store.client.database, channels: [EventStore.notificationChannel])
                group.addTask { await listener.run { _ in doorbell.ring() } }
            }
            group.addTask {
                try await follow(after: checkpoint, doorbell: doorbell, handler)
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func follow(after start: GlobalCheckpoint, doorbell: Doorbell,
                        _ handler: @Sendable ([RecordedEvent]) async throws -> Void) async throws {
        var checkpoint = start
        while !Task.isCancelled {
            let batch: [RecordedEvent]
            do {
                batch = try await store.readAll(after: checkpoint, limit: configuration.batchSize)
            } catch let error as PostgresError where error.isConnectionError || error.code == .poolTimeout {
                await doorbell.wait(upTo: configuration.pollInterval)
                continue
            }
            if let last = batch.last {
                try await handler(batch)
                checkpoint = last.checkpoint
                if batch.count == configuration.batchSize { continue }
            }
            await doorbell.wait(upTo: configuration.pollInterval)
        }
    }

    /// The subscription as an async sequence of single events.
    public func events(after checkpoint: GlobalCheckpoint) -> AsyncThrowingStream<RecordedEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run(after: checkpoint) { batch in batch.forEach { continuation.yield($0) } }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
