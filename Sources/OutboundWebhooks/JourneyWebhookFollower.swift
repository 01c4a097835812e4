import EventStore
import Foundation
import JourneyDomain
import Postgres
import Projections

/// Follows the event log and queues a webhook when a journey completes or is abandoned.
///
/// It works like the projection runner, with its own checkpoint (`outbound_webhooks` in
/// `projection_checkpoints`): one batch is one transaction that row-locks the checkpoint
/// (`FOR UPDATE SKIP LOCKED`, so one follower works at a time and a dead one frees the row at
/// once), reads the events after it in the global order, queues a delivery for each
/// `JourneyCompleted` / `JourneyAbandoned` and stores the new checkpoint. Deliveries and
/// checkpoint commit together, so each ending is queued exactly once; the message id
/// (`msg_<event id>`) is unique per endpoint as a second guard.
///
/// The endpoint: every enabled endpoint of the API key that started the journey, read from
/// the `JourneyStarted` event's actor (`api-key:<prefix>`, see `AccessControl.Principal.actor`;
/// prefixes are unique and never change). Journeys started otherwise get no webhook.
///
/// Errors: connection errors and pool timeouts are retried at the next poll; anything else (an
/// event that does not decode) ends `run()`: the follower stalls at that checkpoint rather than
/// skip an ending. Runs as the schema owner (it writes its checkpoint row), like the runner.
public final class JourneyWebhookFollower: Sendable {
    /// The follower's checkpoint name.
    public static let name = "outbound_webhooks"

    public struct Configuration: Sendable {
        /// Events per batch (one transaction); 500 by default.
        public var batchSize: Int
        /// Wait between polls when caught up; 500 ms by default.
        public var pollInterval: Duration

        public init(batchSize: Int = 500, pollInterval: Duration = .milliseconds(500)) {
            self.batchSize = batchSize
            self.pollInterval = pollInterval
        }
    }

    /// What one batch did.
    public enum BatchResult: Sendable, Equatable {
        /// Read this many events and queued this many deliveries.
        case applied(events: Int, enqueued: Int)
        /// Another follower holds the checkpoint.
        case busy
    }

    public let client: PostgresClient
    public let configuration: Configuration
    private let now: @Sendable () -> Date

    /// `client` must connect as the schema owner; `now` stamps the queued deliveries.
    public init(client: PostgresClient, configuration: Configuration = Configuration(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.configuration = configuration
        self.now = now
    }

    /// Runs one batch transaction.
    public func runBatch(limit: Int? = nil) async throws -> BatchResult {
        let limit = limit ?? configuration.batchSize
        let now = now()
        return try await client.transaction { connection in
            guard let checkpoint = try Self.lockCheckpoint(on: connection) else { return .busy }
            let events = try EventStore.readAll(after: checkpoint, limit: limit, on: connection)
            guard let last = events.last else { return .applied(events: 0, enqueued: 0) }
            let enqueued = try Self.enqueue(endings: events, now: now, on: connection)
            try ProjectionRunner.storeCheckpoint(Self.name, last.checkpoint, on: connection)
            return .applied(events: events.count, enqueued: enqueued)
        }
    }

    /// Applies everything currently readable; returns the number of deliveries queued.
    @discardableResult
    public func catchUp() async throws -> Int {
        var enqueued = 0
        while case .applied(let events, let queued) = try await runBatch() {
            enqueued += queued
            if events < configuration.batchSize { break }
        }
        return enqueued
    }

    /// Follows the log until cancelled.
    public func run() async throws {
        while !Task.isCancelled {
            do {
                if case .applied(let events, _) = try await runBatch(), events == configuration.batchSize { continue }
            } catch let error as PostgresError where error.isConnectionError || error.code == .poolTimeout {
                // Retry at the next poll.
            }
            do { try await Task.sleep(for: configuration.pollInterval) } catch { return }
        }
    }

    // MARK: - One batch

    static let streamPrefix = "journey-"
    static let endingTypes: Set<String> = [JourneyCompleted.eventType, JourneyAbandoned.eventType]

    /// Queues the messages of the endings among `events`; returns how many deliveries.
    static func enqueue(endings events: [RecordedEvent], now: Date, on connection: PostgresConnection) throws -> Int {
        let endings = events.filter { endingTypes.contains($0.type) && $0.streamName.rawValue.hasPrefix(streamPrefix) }
        guard !endings.isEmpty else { return 0 }
        let starts = try startsOf(Array(Set(endings.map(\.streamName.rawValue))), on: connection)
        var enqueued = 0
        for ending in endings {
            guard let start = starts[ending.streamName.rawValue], let apiKeyID = start.apiKeyID else { continue }
            let event = try JourneyEvent(type: ending.type, data: Data(ending.data.text.utf8))
            let journeyID = String(ending.streamName.rawValue.dropFirst(streamPrefix.count))
            guard let message = try JourneyWebhookMessage(event: event, eventID: ending.id, journeyID: journeyID,
                                                          started: start.event) else { continue }
            enqueued += try WebhookOutbox.enqueue(apiKeyID: apiKeyID, messageID: message.messageID, type: message.type,
                                                  payload: message.payload, now: now, on: connection)
        }
        return enqueued
    }

    /// The `JourneyStarted` event of each stream and the id of the API key that appended it.
    static func startsOf(_ streams: [String], on connection: PostgresConnection) throws
        -> [String: (event: JourneyStarted, apiKeyID: UUID?)] {
        let rows = try connection.query("""
            SELECT e.stream_name, e.data::text, k.id
            FROM events e
            LEFT JOIN api_keys k ON e.actor LIKE 'api-key:%' AND k.prefix = substr(e.actor, 9)
            WHERE e.stream_name = ANY(\(streams)::text[]) AND e.stream_version = 1
              AND e.event_type = \(JourneyStarted.eventType)
            """)
        var starts: [String: (event: JourneyStarted, apiKeyID: UUID?)] = [:]
        for row in rows {
            let event = try JourneyEvent(type: JourneyStarted.eventType, data: Data(try row.decode(1, as: String.self).utf8))
            guard case .journeyStarted(let started) = event else { continue }
            starts[try row.decode(0)] = (started, try row.decode(2, as: UUID?.self))
        }
        return starts
    }

    /// The checkpoint, row-locked for this transaction; nil when another follower holds it.

    /// The stored checkpoint.
    /// The follower's checkpoint, row-locked for this transaction; nil while another follower holds it.
    static func lockCheckpoint(on connection: PostgresConnection) throws -> GlobalCheckpoint? {
        try ProjectionRunner.lockCheckpoint(name, on: connection)
    }

    public static func checkpoint(client: PostgresClient) async throws -> GlobalCheckpoint {
        try await ProjectionRunner.checkpoint(name, client: client)
    }
}
