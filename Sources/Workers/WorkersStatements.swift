import Foundation
import JourneyDomain
import Postgres

/// Every statement over `work_leases` (schema/0009); values are binds.
///
/// `seed` reads the read model (`journey_state`, owned by Projections; Reports and Retention's
/// plan read it too): it copies due items into `work_leases` in one INSERT … SELECT, so seeding
/// a million journeys is one statement rather than a read and a write per item.
enum WorkersStatements {
    /// The `NOT EXISTS` probe ends with `OFFSET 0`, which keeps it a per-row primary-key lookup:
    /// pulled up into an anti join, the planner merge-joined it on `due_at` alone while
    /// `work_leases` looked empty to it, and items due at one instant (a burst, the claims bench)
    /// made that a cross product (999,500 rows filtered for a 500-row seed; seeds of 0.2-1 s).
    ///
    /// It reads in `(next_due_at, journey_id)` order (index of migration 0034) after `after`, the
    /// key of the last item the previous seed copied (its `due_at` as text, so no rounding), and
    /// returns each copied item's key: a burst is walked once, not once per seed. Items behind the
    /// key (projected late, or due earlier) are found by the next seed that starts from the top.
    /// One row: the number of items copied and the key of the last one (NULLs when none).
    static func seed(now: Date, after: WorkQueue.SeedKey?, limit: Int) -> PostgresQuery {
        """
        WITH seeded AS (
        INSERT INTO work_leases (journey_id, kind, attempt, due_at)
        SELECT s.journey_id, s.next_due_kind, coalesce(s.next_due_attempt, s.current_attempt), s.next_due_at
        FROM journey_state s
        WHERE s.next_due_at <= \(now) AND s.next_due_kind IS NOT NULL
          AND (\(nullable: after?.dueAt)::timestamptz IS NULL
               OR (s.next_due_at, s.journey_id) > (\(nullable: after?.dueAt)::timestamptz, \(nullable: after?.journeyID)::text))
          AND NOT EXISTS (
            SELECT 1 FROM work_leases l
            WHERE l.journey_id = s.journey_id AND l.kind = s.next_due_kind
              AND l.attempt = coalesce(s.next_due_attempt, s.current_attempt) AND l.due_at = s.next_due_at
            OFFSET 0)
        ORDER BY s.next_due_at, s.journey_id
        LIMIT \(limit)
        ON CONFLICT DO NOTHING
        RETURNING due_at, journey_id)
        SELECT (SELECT count(*)::int FROM seeded), last.due_at::text, last.journey_id
        FROM (SELECT 1) one LEFT JOIN LATERAL (
            SELECT due_at, journey_id FROM seeded ORDER BY due_at DESC, journey_id DESC LIMIT 1) last ON true
        """
    }

    static func claim(worker: String, now: Date, leaseUntil: Date, limit: Int) -> PostgresQuery {
        """
        UPDATE work_leases w
        SET worker = \(worker), lease_until = \(leaseUntil), tries = w.tries + 1
        FROM (
            SELECT journey_id, kind, attempt, due_at FROM work_leases
            WHERE done_at IS NULL AND lease_until <= \(now) AND due_at <= \(now)
            ORDER BY lease_until, due_at
            LIMIT \(limit)
            FOR UPDATE SKIP LOCKED
        ) c
        WHERE w.journey_id = c.journey_id AND w.kind = c.kind AND w.attempt = c.attempt AND w.due_at = c.due_at
        RETURNING w.journey_id, w.kind, w.attempt, w.due_at, w.tries
        """
    }

    static func renew(worker: String, leaseUntil: Date) -> PostgresQuery {
        """
        UPDATE work_leases SET lease_until = \(leaseUntil)
        WHERE worker = \(worker) AND done_at IS NULL
        RETURNING 1
        """
    }

    static func completeOne(_ item: WorkItem, outcome: String, now: Date) -> PostgresQuery {
        """
        UPDATE work_leases SET done_at = \(now), outcome = \(outcome), lease_until = \(now)
        WHERE journey_id = \(item.journeyID.rawValue) AND kind = \(item.kind.rawValue)
          AND attempt = \(item.attempt) AND due_at = \(item.dueAt) AND done_at IS NULL
        RETURNING 1
        """
    }

    static func completeMany(_ items: [WorkItem], outcomes: [String], now: Date) -> PostgresQuery {
        """
        UPDATE work_leases w SET done_at = \(now), outcome = d.outcome, lease_until = \(now)
        FROM unnest(\(items.map(\.journeyID.rawValue))::text[], \(items.map(\.kind.rawValue))::text[],
                    \(items.map(\.attempt))::integer[], \(items.map(\.dueAt))::timestamptz[], \(outcomes)::text[])
             AS d(journey_id, kind, attempt, due_at, outcome)
        WHERE w.journey_id = d.journey_id AND w.kind = d.kind AND w.attempt = d.attempt AND w.due_at = d.due_at
          AND w.done_at IS NULL
        RETURNING 1
        """
    }

    static func release(_ item: WorkItem, worker: String, until at: Date, outcome: String) -> PostgresQuery {
        """
        UPDATE work_leases SET worker = NULL, lease_until = \(at), outcome = \(outcome)
        WHERE journey_id = \(item.journeyID.rawValue) AND kind = \(item.kind.rawValue)
          AND attempt = \(item.attempt) AND due_at = \(item.dueAt) AND done_at IS NULL AND worker = \(worker)
        RETURNING 1
        """
    }

    static func purge(finishedBefore cutoff: Date) -> PostgresQuery {
        "DELETE FROM work_leases WHERE done_at < \(cutoff) RETURNING 1"
    }

    /// Open items whose last try ended in an error (released with outcome `error`).
    static let failingCount: PostgresQuery = "SELECT count(*) FROM work_leases WHERE done_at IS NULL AND outcome = 'error'"
}
