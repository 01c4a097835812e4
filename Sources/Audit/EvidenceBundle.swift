import Cryptography
import EventStore
import Foundation
import JourneyDomain
import Postgres
import Timestamps

/// Everything an auditor needs about one journey, as one JSON document: its events with their
/// hashes, the stream's chain verification, the newest signed checkpoint covering it (with its
/// signed payload and public key) and the journey's state. Sealed fields stay sealed.
public struct EvidenceBundle: Sendable, Encodable {
    public struct Event: Sendable, Encodable {
        public var position: Int64
        public var transactionId: String
        public var version: Int64
        public var id: String
        public var type: String
        public var recordedAt: String
        public var recordedAtMicros: Int64
        public var correlationId: String?
        public var causationId: String?
        public var actor: String?
        /// The stored JSON text, exactly as hashed.
        public var data: String
        public var previousHash: String
        public var hash: String
    }

    public struct Checkpoint: Sendable, Encodable {
        public var id: Int64
        public var createdAt: String
        public var transactionId: String
        public var position: Int64
        public var streams: Int64
        public var events: Int64
        public var headsDigest: String
        public var previousSignature: String
        /// The exact signed text.
        public var payload: String
        public var signature: String
        public var publicKey: String
        public var publicKeyPEM: String
        public var keyId: String
        public var signatureValid: Bool
        /// Whether the public key is one configured as trusted (false when none is configured).
        public var keyTrusted: Bool
        /// This stream's head at the checkpoint's cut: events up to this version are covered.
        public var streamHeadVersion: Int64?
        public var streamHeadHash: String?
    }

    public var format = "journeys-evidence-v1"
    public var journeyId: String
    public var stream: String
    public var exportedAt: String
    public var hashAlgorithm = """
        sha256(previousHash || each field as "<utf8 length>:<value>\\n", "-\\n" when null); fields: stream, version, \
        id, type, data, correlationId, causationId, actor, recordedAtMicros
        """
    public var events: [Event]
    public var verification: StreamChain.Result
    public var checkpoint: Checkpoint?
    public var state: StateSummary

    /// Collects the bundle of `id` from `events` (and the checkpoints on its database); throws
    /// `journey_not_found` for a journey without events.
    public static func collect(
        _ id: JourneyID, events: EventStore, keys: AuditKeys,
        now: Date = Date()
    ) async throws -> EvidenceBundle {
        let client = events.client
        let stream = StreamName.journey(id.rawValue)
        let recorded = try await events.readStream(stream, from: 1, limit: Int(Int32.max))
        guard !recorded.isEmpty else { throw AuditError(.journeyNotFound, "no journey has id \(id.rawValue)") }
        let timeline = try JourneyTimeline.timeline(id, events: recorded, asOf: nil)
        var checkpoint: Checkpoint?
        if let stored = try await SignedCheckpointStore(client: client).latest(covering: stream) {
            let head = try await client.withConnection { try LogSummary.head(of: stream, at: stored.summary.cut, on: $0) }
            let publicKey = try Ed25519PublicKey(rawRepresentation: stored.publicKey)
            checkpoint = Checkpoint(
                id: stored.id, createdAt: RFC3339.string(from: stored.createdAt),
                transactionId: String(stored.summary.cut.transactionID), position: stored.summary.cut.position,
                streams: stored.summary.streams, events: stored.summary.events,
                headsDigest: Hex.encode(stored.summary.headsDigest),
                previousSignature: Hex.encode(stored.previousSignature), payload: String(decoding: stored.payload, as: UTF8.self),
                signature: Hex.encode(stored.signature), publicKey: Hex.encode(stored.publicKey),
                publicKeyPEM: try publicKey.pem, keyId: CheckpointVerifier.keyID(stored.publicKey),
                signatureValid: stored.hasValidSignature, keyTrusted: keys.trusted.contains(publicKey),
                streamHeadVersion: head?.version, streamHeadHash: head.map { Hex.encode($0.hash) })
        }
        return EvidenceBundle(
            journeyId: id.rawValue, stream: stream.rawValue, exportedAt: RFC3339.string(from: now),
            events: recorded.map { event in
                Event(
                    position: event.position, transactionId: String(event.transactionID), version: event.streamVersion,
                    id: event.id.uuidString.lowercased(), type: event.type, recordedAt: RFC3339.string(from: event.recordedAt),
                    recordedAtMicros: RFC3339.microseconds(since1970: event.recordedAt),
                    correlationId: event.metadata.correlationID?.uuidString.lowercased(),
                    causationId: event.metadata.causationID?.uuidString.lowercased(), actor: event.metadata.actor,
                    data: event.data.text, previousHash: Hex.encode(event.previousHash), hash: Hex.encode(event.hash))
            },
            verification: StreamChain.verify(recorded), checkpoint: checkpoint, state: StateSummary(timeline.state))
    }

    /// The bundle as pretty-printed JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return try encoder.encode(self)
    }
}
