import EventStore
import Foundation
import JourneyDomain
import Postgres

/// The journey engine: every use case of a journey (start, token, attempt, the app's reports,
/// Unico's webhooks, the result, and the workers' expiry, retry and reconciliation) over the
/// domain, the repository, the vault and the Unico clients.
///
/// Use cases return domain outcomes and throw `DomainError` (the journey refuses), ``EngineError``
/// or `HumanTokenAPIError`; every write goes through ``commands``. No Unico call is made inside
/// a transaction.
public struct Journeys: Sendable {
    public let commands: JourneyCommandRunner
    public let dependencies: EngineDependencies

    /// The use cases over `events` (the process's one event store, which `JourneyApp` makes).
    public init(events: EventStore, dependencies: EngineDependencies) {
        self.commands = JourneyCommandRunner(events: events, clock: dependencies.clock, random: dependencies.random)
        self.dependencies = dependencies
    }

    public var database: PostgresClient { commands.database }
    /// The event store every command appends to.
    public var events: EventStore { commands.events }

    /// The journey's current state and version (version 0 and the initial state when unknown).
    public func load(_ id: JourneyID) async throws -> (state: JourneyState, version: Int64) {
        try await commands.load(id)
    }

    /// The journey's current state; `journey_not_found` when it has no events.
    public func state(of id: JourneyID) async throws -> JourneyState {
        let (state, version) = try await commands.load(id)
        guard version > 0 else { throw EngineError.notFound() }
        return state
    }

    /// Metadata of one use case's events: a fresh correlation id and `actor`.
    func metadata(actor: String) -> EventMetadata {
        EventMetadata(correlationID: dependencies.ids(), actor: actor)
    }

    /// The actor of the workers' events.
    static let workerActor = "worker"
}
