import Foundation
import Postgres

/// Every statement of the retention policy; values are binds.
///
/// The read-model statements mirror the partial indexes of `schema/0023_retention.sql` word for
/// word, so the planner uses them.
enum RetentionStatements {
    /// Subjects (after `after`, in reference order, at most `limit`) whose key is not erased and
    /// whose journeys in `journey_state` all ended (completed or abandoned) before `cutoff`.
    static func subjectsDue(endedBefore cutoff: Date, after: String, limit: Int) -> PostgresQuery {
        """
        SELECT s.subject_reference
        FROM journey_state s
        WHERE s.subject_reference IS NOT NULL AND s.subject_reference > \(after)
          AND NOT EXISTS (SELECT 1 FROM subject_keys k WHERE k.subject_ref = s.subject_reference AND k.erased_at IS NOT NULL)
        GROUP BY s.subject_reference
        HAVING bool_and(s.status IN ('completed', 'abandoned'))
           AND max(COALESCE(s.completed_at, s.abandoned_at)) < \(cutoff)::timestamptz
        ORDER BY s.subject_reference
        LIMIT \(limit)::int
        """
    }
}
