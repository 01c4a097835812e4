import Postgres

/// Every statement of the data-subject requests; values are binds.
enum DataSubjectsStatements {
    /// Ids of the journeys started for `subject`, oldest first, from the log itself (not a read
    /// model that may lag), through the `events_subject_reference` index; only those of `tenant`
    /// when given (a start without `tenant` belongs to `default`).
    static func journeys(of subject: String, tenant: String?) -> PostgresQuery {
        """
        SELECT data->>'journeyID' FROM events
        WHERE event_type = 'JourneyStarted' AND data->'subject'->>'reference' = \(subject)
          AND (\(nullable: tenant)::text IS NULL OR coalesce(data->>'tenant', 'default') = \(nullable: tenant))
        ORDER BY position
        """
    }
}
