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

    /// Ids of the journeys started for `subject`, oldest first, from the log itself (not a read
    /// model that may lag), through the `events_subject_reference` index (schema/0022); only
    /// those of `tenant` when given (a start without `tenant` belongs to `default`).
    static func journeys(of subject: String, tenant: String?) -> PostgresQuery {
        """
        SELECT data->>'journeyID' FROM events
        WHERE event_type = 'JourneyStarted' AND data->'subject'->>'reference' = \(subject)
          AND (\(nullable: tenant)::text IS NULL OR coalesce(data->>'tenant', 'default') = \(nullable: tenant))
        ORDER BY position
        """
    }
}
