import AccessControl
import EventStore
import Foundation
import JourneyDomain
import Postgres

/// Follows the event log and queues a webhook for each journey step an endpoint subscribes to.
///
/// A ``LogFollower`` with its own stored checkpoint (`outbound_webhooks`): one batch is one
/// transaction that row-locks the checkpoint (`FOR UPDATE SKIP LOCKED`, so one follower works at
/// a time and a dead one frees the row at once), reads the events after it in the global order
/// (NOTIFY wakes it, polling is the truth), queues a delivery for each step
/// (``JourneyWebhookEventType/of(_:)``) to each enabled endpoint subscribed to its type, and
/// stores the new checkpoint. Deliveries and checkpoint commit together, so each step is
/// queued exactly once; the message id
/// (`msg_<event id>`) is unique per endpoint as a second guard.
///
/// The endpoint: every enabled endpoint of the API key that started the journey, read from
/// the `JourneyStarted` event's actor (`api-key:<prefix>`, see `AccessControl.Principal.actor`;
/// prefixes are unique and never change). Journeys started otherwise get no webhook.
///
/// Errors: connection errors and pool timeouts are retried at the next poll; anything else (an
/// event that does not decode) ends `run()`: the follower stalls at that checkpoint rather than
/// skip an ending. Runs as `journeys_projector` (it writes its checkpoint row and the outbox), like the runner.
public final class JourneyWebhookFollower: Sendable {
    /// The follower's checkpoint name.
    public static let name = "outbound_webhooks"

    /// Batch size, poll interval and LISTEN: the follower's own settings.
    public typealias Configuration = LogFollower.Configuration

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
    private let follower: LogFollower

    /// `client` must connect as `journeys_projector` (or the schema owner); `now` stamps the queued deliveries.
    public init(
        client: PostgresClient, configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.configuration = configuration
        self.now = now
        follower = LogFollower(
            client: client, checkpoint: .stored(name: Self.name),
            configuration: .init(
                batchSize: configuration.batchSize, pollInterval: configuration.pollInterval,
                listen: configuration.listen)
        ) { events, connection in
            _ = try Self.enqueue(endings: events, now: now(), on: connection)
        }
    }

    /// Runs one batch transaction.
    public func runBatch(limit: Int? = nil) async throws -> BatchResult {
        let now = now()
        let batch = try await follower.runBatch(limit: limit) { events, connection in
            try Self.enqueue(endings: events, now: now, on: connection)
        }
        switch batch.result {
        case .busy: return .busy
        case .applied(let events): return .applied(events: events, enqueued: batch.output ?? 0)
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
        try await follower.run()
    }

    // MARK: - One batch

    /// Queues the messages of the steps among `events` (see ``JourneyWebhookEventType``) for the
    /// endpoints subscribed to them; returns how many deliveries.
    static func enqueue(endings events: [RecordedEvent], now: Date, on connection: PostgresConnection) throws -> Int {
        let steps = events.filter {
            JourneyWebhookEventType.sourceEventTypes.contains($0.type) && $0.streamName.journeyID != nil
        }
        guard !steps.isEmpty else { return 0 }
        let starts = try startsOf(Array(Set(steps.map(\.streamName.rawValue))), on: connection)
        let keyIDs = Array(Set(starts.values.compactMap(\.apiKeyID)))
        guard !keyIDs.isEmpty else { return 0 }
        let subscriptions = try WebhookOutbox.subscriptions(apiKeyIDs: keyIDs, on: connection)
        var enqueued = 0
        for step in steps {
            guard let start = starts[step.streamName.rawValue], let apiKeyID = start.apiKeyID,
                let wanted = subscriptions[apiKeyID]
            else { continue }
            let event = try JourneyEvent(type: step.type, text: step.data.text)
            guard let type = JourneyWebhookEventType.of(event), wanted.contains(type) else { continue }
            guard let journeyID = step.streamName.journeyID,
                let message = try JourneyWebhookMessage(
                    event: event, eventID: step.id, journeyID: journeyID,
                    started: start.event)
            else { continue }
            enqueued += try WebhookOutbox.enqueue(
                apiKeyID: apiKeyID, messageID: message.messageID, type: message.type,
                payload: message.payload, now: now, on: connection)
        }
        return enqueued
    }

    /// The `JourneyStarted` event of each stream and the id of the API key that appended it.
    ///
    /// Two reads per batch with endings, whatever their number: the streams' first events from the
    /// log, then the ids of the keys their actors name (`api-key:<prefix>`) from access control.
    static func startsOf(_ streams: [String], on connection: PostgresConnection) throws
        -> [String: (event: JourneyStarted, apiKeyID: UUID?)]
    {
        let firsts = try EventStore.firstEvents(of: streams.map(StreamName.init), on: connection)
            .filter { $0.type == JourneyStarted.eventType }
        let prefixes = firsts.compactMap { keyPrefix(ofActor: $0.metadata.actor) }
        let keyIDs = try APIKeyStore.keyIDs(prefixes: Array(Set(prefixes)), on: connection)
        var starts: [String: (event: JourneyStarted, apiKeyID: UUID?)] = [:]
        for first in firsts {
            let event = try JourneyEvent(type: JourneyStarted.eventType, data: Data(first.data.text.utf8))
            guard case .journeyStarted(let started) = event else { continue }
            starts[first.streamName.rawValue] = (started, keyPrefix(ofActor: first.metadata.actor).flatMap { keyIDs[$0] })
        }
        return starts
    }

    /// The key prefix of an `api-key:<prefix>` actor.
    static func keyPrefix(ofActor actor: String?) -> String? {
        guard let actor, actor.hasPrefix(actorPrefix) else { return nil }
        return String(actor.dropFirst(actorPrefix.count))
    }

    static let actorPrefix = "api-key:"

    /// The follower's checkpoint, row-locked for this transaction; nil while another follower holds it.
    static func lockCheckpoint(on connection: PostgresConnection) throws -> GlobalCheckpoint? {
        try CheckpointStore.lock(name, on: connection)
    }

    /// The stored checkpoint.
    public static func checkpoint(client: PostgresClient) async throws -> GlobalCheckpoint {
        try await CheckpointStore(client: client).checkpoint(name)
    }
}
