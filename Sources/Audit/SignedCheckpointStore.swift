import Cryptography
import EventStore
import Foundation
import JourneyDomain
import Postgres
import Timestamps

/// Writes and reads `audit_checkpoints`; works with the application role (INSERT and SELECT).
public struct SignedCheckpointStore: Sendable {
    public let client: PostgresClient
    public let clock: @Sendable () -> Date

    public init(client: PostgresClient, clock: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.clock = clock
    }

    /// Summarizes the log up to its current cut, signs the summary with `key` and stores it,
    /// chained to the latest checkpoint. Concurrent callers are serialized.
    public func create(signingWith key: Ed25519PrivateKey) async throws -> AuditCheckpoint {
        let createdAt = RFC3339.roundedToMicroseconds(clock())
        return try await client.transaction { connection in
            try connection.query(AuditStatements.lock)
            let previous = try Self.latest(on: connection)
            let summary = try LogSummary.compute(upTo: try LogSummary.currentCut(on: connection), on: connection)
            let previousSignature = previous?.signatureDigest ?? AuditCheckpoint.genesis
            let payload = AuditCheckpoint.payload(createdAt: createdAt, summary: summary, previousSignature: previousSignature)
            let signature = try key.signature(for: payload)
            let id = try connection.query(
                AuditStatements.insert(
                    createdAt: createdAt, summary: summary, previousSignature: previousSignature,
                    publicKey: key.publicKey.rawRepresentation, signature: signature)
            ).first!.decode(0, as: Int64.self)
            return AuditCheckpoint(
                id: id, createdAt: createdAt, summary: summary, previousSignature: previousSignature,
                publicKey: key.publicKey.rawRepresentation, signature: signature)
        }
    }

    /// Every checkpoint, oldest first.
    public func all() async throws -> [AuditCheckpoint] {
        try await client.query(AuditStatements.all).map(Self.checkpoint)
    }

    /// The newest checkpoint whose cut includes at least one event of `stream`.
    public func latest(covering stream: StreamName) async throws -> AuditCheckpoint? {
        try await client.withConnection { connection in
            guard let first = try EventStore.firstCheckpoint(of: stream, on: connection) else { return nil }
            return try connection.query(AuditStatements.latest(atOrAfter: first)).first.map(Self.checkpoint)
        }
    }

    static func latest(on connection: PostgresConnection) throws -> AuditCheckpoint? {
        try connection.query(AuditStatements.latest).first.map(checkpoint)
    }

    static func checkpoint(_ row: PostgresRow) throws -> AuditCheckpoint {
        AuditCheckpoint(
            id: try row.decode(0), createdAt: try row.decode(1),
            summary: LogSummary(
                cut: GlobalCheckpoint(transactionID: try row.decode(2), position: try row.decode(3)),
                streams: try row.decode(4), events: try row.decode(5), headsDigest: try row.decode(6)),
            previousSignature: try row.decode(7), publicKey: try row.decode(8), signature: try row.decode(9))
    }
}
