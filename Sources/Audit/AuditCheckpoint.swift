import Cryptography
import EventStore
import Foundation
import JourneyDomain
import Postgres
import Timestamps

/// A stored, Ed25519-signed summary of the event log (a row of `audit_checkpoints`).
///
/// The signature covers ``payload``: a versioned text naming the creation time, the cut, the
/// counts, the heads digest and the previous checkpoint's signature digest, so altering any
/// stored column or dropping a checkpoint from the chain is detected.
public struct AuditCheckpoint: Sendable, Equatable {
    public let id: Int64
    public let createdAt: Date
    public let summary: LogSummary
    /// sha256 of the previous checkpoint's signature; 32 zero bytes for the first.
    public let previousSignature: Data
    public let publicKey: Data
    public let signature: Data

    public init(id: Int64, createdAt: Date, summary: LogSummary, previousSignature: Data, publicKey: Data, signature: Data) {
        self.id = id
        self.createdAt = createdAt
        self.summary = summary
        self.previousSignature = previousSignature
        self.publicKey = publicKey
        self.signature = signature
    }

    /// The first checkpoint's `previousSignature`.
    public static let genesis = Data(repeating: 0, count: 32)

    /// The signed bytes.
    public var payload: Data {
        Self.payload(createdAt: createdAt, summary: summary, previousSignature: previousSignature)
    }

    /// The signed text, one `name=value` per line.
    public static func payload(createdAt: Date, summary: LogSummary, previousSignature: Data) -> Data {
        Data(
            """
            journeys-audit-checkpoint-v1
            created_at=\(RFC3339.string(from: createdAt))
            transaction_id=\(summary.cut.transactionID)
            position=\(summary.cut.position)
            streams=\(summary.streams)
            events=\(summary.events)
            heads_digest=\(Hex.encode(summary.headsDigest))
            previous_signature=\(Hex.encode(previousSignature))

            """.utf8)
    }

    /// Whether `signature` is `publicKey`'s valid signature of ``payload``.
    public var hasValidSignature: Bool {
        guard let key = try? Ed25519PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: payload)
    }

    /// What the next checkpoint stores as `previousSignature`.
    public var signatureDigest: Data { SHA256.hash(signature) }
}
