import Foundation
import Postgres

/// Every statement over the start's idempotency keys, `idempotency_keys` (schema/0004, 0015,
/// 0016, 0046); values are binds. Leases run on the database's clock.
enum IdempotencyStatements {
    /// Inserts the in-progress row under the key's lease; returns a row only when the key was free.
    static func claim(_ key: IdempotencyKey, journeyID: String, lease: Double) -> PostgresQuery {
        """
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, journey_id, owner, lease_until)
        VALUES (\(key.scope), \(key.key), \(key.requestHash), \(journeyID), \(key.owner),
                clock_timestamp() + make_interval(secs => \(lease)))
        ON CONFLICT (api_key_id, key) DO NOTHING RETURNING 1
        """
    }

    /// Extends the lease while the key's request still holds it; returns a row when it did.
    static func renew(_ key: IdempotencyKey, lease: Double) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET lease_until = clock_timestamp() + make_interval(secs => \(lease))
        WHERE api_key_id = \(key.scope) AND key = \(key.key) AND owner = \(key.owner)
            AND state = 'in_progress'
        RETURNING 1
        """
    }

    /// Makes the key's request its owner when the key is released or its lease lapsed (a row
    /// without a lease lapses `staleSeconds` after creation); returns the journey when it did.
    static func takeOver(_ key: IdempotencyKey, lease: Double, staleSeconds: Double) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'in_progress', owner = \(key.owner), completed_at = NULL,
            lease_until = clock_timestamp() + make_interval(secs => \(lease))
        WHERE api_key_id = \(key.scope) AND key = \(key.key) AND request_hash = \(key.requestHash)
            AND (state = 'released' OR (state = 'in_progress' AND coalesce(lease_until,
                created_at + make_interval(secs => \(staleSeconds))) < clock_timestamp()))
        RETURNING journey_id
        """
    }

    /// A key and its final outcome in one row; no `ON CONFLICT`: a taken key is an error.
    static func insertCompleted(_ key: IdempotencyKey, journeyID: String, outcome: String) -> PostgresQuery {
        """
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, journey_id, owner, state, outcome, completed_at)
        VALUES (\(key.scope), \(key.key), \(key.requestHash), \(journeyID), \(key.owner), 'completed',
                \(outcome)::jsonb, now())
        """
    }

    /// Stores the outcome while the key is still in progress or released; returns a row when it did.
    static func complete(_ key: IdempotencyKey, outcome: String) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'completed', outcome = \(outcome)::jsonb, completed_at = now(),
            lease_until = NULL
        WHERE api_key_id = \(key.scope) AND key = \(key.key) AND state IN ('in_progress', 'released')
        RETURNING 1
        """
    }

    /// Releases the key of `journeyID` (no outcome stored) while the key's request holds it;
    /// returns a row when it did.
    static func release(_ key: IdempotencyKey, journeyID: String) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'released', completed_at = now(), lease_until = NULL
        WHERE api_key_id = \(key.scope) AND key = \(key.key) AND journey_id = \(journeyID)
            AND state = 'in_progress' AND owner IS NOT DISTINCT FROM \(key.owner)
        RETURNING 1
        """
    }

    /// The key's row, with whether another request could take it over now (`lapsed`).
    static func lookup(_ key: IdempotencyKey, staleSeconds: Double) -> PostgresQuery {
        """
        SELECT request_hash, state, outcome::text, journey_id,
               state = 'released' OR (state = 'in_progress' AND coalesce(lease_until,
                   created_at + make_interval(secs => \(staleSeconds))) < clock_timestamp()) AS lapsed
        FROM idempotency_keys
        WHERE api_key_id = \(key.scope) AND key = \(key.key)
        """
    }
}

extension IdempotencyStatements {
    /// How many keys keep an outcome stored before `cutoff`.
    static func outcomesStored(before cutoff: Date) -> PostgresQuery {
        "SELECT count(*)::int FROM idempotency_keys WHERE outcome IS NOT NULL AND completed_at < \(cutoff)::timestamptz"
    }

    /// Drops up to `limit` outcomes stored before `cutoff`, oldest first: the keys are left
    /// released, so a replay answers from the journey's state (as an erasure leaves them).
    static func purgeOutcomes(before cutoff: Date, limit: Int) -> PostgresQuery {
        """
        UPDATE idempotency_keys k SET state = 'released', outcome = NULL
        FROM (SELECT api_key_id, key FROM idempotency_keys
              WHERE outcome IS NOT NULL AND completed_at < \(cutoff)::timestamptz
              ORDER BY completed_at LIMIT \(limit)::int) due
        WHERE k.api_key_id = due.api_key_id AND k.key = due.key AND k.outcome IS NOT NULL
        """
    }

    /// Drops the stored outcomes of the keys of `journeys`, leaving the keys released.
    static func purgeOutcomes(journeys: [String]) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'released', outcome = NULL
        WHERE journey_id = ANY(\(journeys)::text[]) AND outcome IS NOT NULL
        """
    }

    /// How many keys were answered or released before `cutoff`.
    static func keysSettled(before cutoff: Date) -> PostgresQuery {
        "SELECT count(*)::int FROM idempotency_keys WHERE state <> 'in_progress' AND completed_at < \(cutoff)::timestamptz"
    }

    /// Deletes up to `limit` of those, oldest first (migration 0041's definer function).
    static func deleteKeys(before cutoff: Date, limit: Int) -> PostgresQuery {
        "SELECT purge_idempotency_keys(\(cutoff)::timestamptz, \(limit)::int)"
    }
}
