import EventStore
import Postgres

/// A ``Projection`` that returns its writes instead of running them: the ``ProjectionRunner``
/// sends them with the batch's checkpoint and COMMIT in one pipeline (one round trip for all of
/// them; see ``EventStore/LogFollower/PipelinedHandler``).
public protocol PipelinedProjection: Projection {
    /// Reads what the batch needs on `connection` (inside the batch's transaction) and returns the
    /// statements that write it, in order. `apply` must do the same as running them.
    func writes(for events: [RecordedEvent], on connection: PostgresConnection) throws -> [PostgresQuery]
}
