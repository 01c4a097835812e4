import JourneyDomain
import Postgres

/// The engine's SQL: the webhook lookup `process_journeys` (schema/0005), written with the
/// `ProcessCreated` event and read when Unico's webhook arrives.
enum EngineStatements {
    static func insertProcessJourney(processID: String, journeyID: JourneyID, attempt: Int) -> PostgresQuery {
        """
        INSERT INTO process_journeys (process_id, journey_id, attempt)
        VALUES (\(processID), \(journeyID.rawValue), \(attempt))
        ON CONFLICT (process_id) DO NOTHING
        """
    }

    static func journeyOfProcess(_ processID: ProcessID) -> PostgresQuery {
        "SELECT journey_id FROM process_journeys WHERE process_id = \(processID.rawValue)"
    }
}
