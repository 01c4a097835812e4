import EventStore
import Foundation
import Postgres

/// Every statement over `audit_checkpoints`; values are binds.
///
/// A cut's transaction id is bound as text and cast to xid8, so cuts compare as numbers.
enum AuditStatements {
    /// Serializes checkpoint writers until the transaction ends.
    static let lock: PostgresQuery = "SELECT pg_advisory_xact_lock(hashtext('audit_checkpoints'))"

    /// The columns ``SignedCheckpointStore/checkpoint(_:)`` reads, by index.
    static let columns = """
        id, created_at, transaction_id::text, position, streams, events, heads_digest, previous_signature, public_key, signature
        """

    static func insert(
        createdAt: Date, summary: LogSummary, previousSignature: Data, publicKey: Data,
        signature: Data
    ) -> PostgresQuery {
        """
        INSERT INTO audit_checkpoints (created_at, transaction_id, position, streams, events, heads_digest,
            previous_signature, public_key, signature)
        VALUES (\(createdAt), \(String(summary.cut.transactionID))::xid8, \(summary.cut.position), \(summary.streams),
            \(summary.events), \(summary.headsDigest), \(previousSignature), \(publicKey), \(signature))
        RETURNING id
        """
    }

    /// Every checkpoint, oldest first.
    static let all: PostgresQuery = "SELECT \(unsafeSQL: columns) FROM audit_checkpoints ORDER BY id"

    static let latest: PostgresQuery = "SELECT \(unsafeSQL: columns) FROM audit_checkpoints ORDER BY id DESC LIMIT 1"

    /// The newest checkpoint whose cut is at or after `first` (a stream's first event).
    static func latest(atOrAfter first: GlobalCheckpoint) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: columns) FROM audit_checkpoints
        WHERE (transaction_id, position) >= (\(String(first.transactionID))::xid8, \(first.position))
        ORDER BY id DESC LIMIT 1
        """
    }
}
