import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import JourneyStore
import Postgres

/// Runs journey commands in short transactions of the service's own, retrying when another
/// writer moved the stream first; domain refusals become problems.
struct JourneyWriter: Sendable {
    /// Tries when another writer moved the stream first.
    static let maximumAttempts = 5

    let database: PostgresClient
    let clock: @Sendable () -> Date
    /// Wakes followers of the log (projection runner, webhook follower) after each commit.
    private let events: EventStore

    init(database: PostgresClient, clock: @escaping @Sendable () -> Date) {
        self.database = database
        self.clock = clock
        self.events = EventStore(client: database)
    }

    /// Runs `body` in one transaction at the decision time, retrying it on version conflicts.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Date) throws -> T) async throws -> T {
        var tries = 0
        while true {
            tries += 1
            let now = clock()
            do {
                let result = try await database.transaction { try body($0, now) }
                events.notifyAppended()
                return result
            } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
                if tries >= Self.maximumAttempts { throw error }
            } catch let error as DomainError {
                throw Problem.domain(error)
            }
        }
    }

    /// Decides and appends `command` on `connection` (inside the caller's transaction).
    static func execute(_ command: JourneyCommand, journey id: JourneyID, metadata: EventMetadata, now: Date,
                        on connection: PostgresConnection) throws -> JourneyRepository.Outcome {
        try JourneyRepository.execute(command, journey: id, metadata: metadata, now: now,
                                      randomUnit: Double.random(in: 0..<1), on: connection)
    }

    /// The journey's state, or 404 `journey_not_found` when it has no events.
    func load(_ id: JourneyID) async throws -> JourneyState {
        let (state, version) = try await database.withConnection { try JourneyRepository.load(id, on: $0) }
        guard version > 0 else { throw Problem.journeyNotFound() }
        return state
    }
}
