import EventStore
import Postgres

/// A read model folded from the log, run by a ``ProjectionRunner``.
public protocol Projection: Sendable {
    /// The projection's name: its checkpoint's name in the ``EventStore/CheckpointStore``.
    var name: String { get }
    /// Applies `events` (a batch in global order) on `connection`, inside the batch's transaction;
    /// the checkpoint is stored in the same transaction after it returns. Throwing rolls both back.
    func apply(_ events: [RecordedEvent], on connection: PostgresConnection) throws
}
