import EventStore
import Foundation
import JourneyEngine
import Postgres

// Tests build the engine over a database of their own; the product's one event store and one
// `Journeys` per process come from `JourneyApp`.

extension Journeys {
    /// The use cases over a new event store on `database` (tests only).
    public init(database: PostgresClient, dependencies: EngineDependencies) {
        self.init(events: EventStore(client: database), dependencies: dependencies)
    }
}

extension JourneyCommandRunner {
    /// A runner over a new event store on `database` (tests only).
    public init(
        database: PostgresClient, clock: @escaping @Sendable () -> Date = Date.init,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.init(events: EventStore(client: database), clock: clock, random: random)
    }
}
