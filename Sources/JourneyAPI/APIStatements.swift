import Foundation
import HTTPServer
import Postgres

/// Every statement of the API over its own table, `idempotency_keys` (schema/0004, 0015, 0016);
/// values are binds. Leases run on the database's clock.
enum APIStatements {
    /// Inserts the in-progress row under the claim's lease; returns a row only when the key was free.
    static func claimKey(_ claim: IdempotencyStore.Claim, journeyID: String, lease: Double) -> PostgresQuery {
        """
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, journey_id, owner, lease_until)
        VALUES (\(claim.apiKeyID), \(claim.key), \(claim.requestHash), \(journeyID), \(claim.owner),
                clock_timestamp() + make_interval(secs => \(lease)))
        ON CONFLICT (api_key_id, key) DO NOTHING RETURNING 1
        """
    }

    /// Extends the lease while the claim's request still holds the key; returns a row when it did.
    static func renewKey(_ claim: IdempotencyStore.Claim, lease: Double) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET lease_until = clock_timestamp() + make_interval(secs => \(lease))
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key) AND owner = \(claim.owner)
            AND state = 'in_progress'
        RETURNING 1
        """
    }

    /// Makes the claim's request the key's owner when the key is released or its lease lapsed
    /// (a row without a lease lapses `staleSeconds` after creation); returns the journey when it did.
    static func takeOverKey(_ claim: IdempotencyStore.Claim, lease: Double, staleSeconds: Double) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'in_progress', owner = \(claim.owner), completed_at = NULL,
            lease_until = clock_timestamp() + make_interval(secs => \(lease))
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key) AND request_hash = \(claim.requestHash)
            AND (state = 'released' OR (state = 'in_progress' AND coalesce(lease_until,
                created_at + make_interval(secs => \(staleSeconds))) < clock_timestamp()))
        RETURNING journey_id
        """
    }

    /// Stores the answer while the key is still in progress or released; returns a row when it did.
    /// A key and its final answer in one row; no `ON CONFLICT`: a taken key is an error.
    static func insertCompletedKey(_ claim: IdempotencyStore.Claim, journeyID: String, response: HTTPResponse) -> PostgresQuery {
        """
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, journey_id, owner, state, response_status,
                                      response_body, completed_at)
        VALUES (\(claim.apiKeyID), \(claim.key), \(claim.requestHash), \(journeyID), \(claim.owner), 'completed',
                \(response.status.code), \(String(decoding: response.body, as: UTF8.self)), now())
        """
    }

    static func completeKey(_ claim: IdempotencyStore.Claim, response: HTTPResponse) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'completed', response_status = \(response.status.code),
            response_body = \(String(decoding: response.body, as: UTF8.self)), completed_at = now(),
            lease_until = NULL
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key) AND state IN ('in_progress', 'released')
        RETURNING 1
        """
    }

    /// Releases the key of `journeyID` (no answer stored) while the claim's request holds it;
    /// returns a row when it did.
    static func releaseKey(_ claim: IdempotencyStore.Claim, journeyID: String) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'released', completed_at = now(), lease_until = NULL
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key) AND journey_id = \(journeyID)
            AND state = 'in_progress' AND owner IS NOT DISTINCT FROM \(claim.owner)
        RETURNING 1
        """
    }

    /// The key's row, with whether another request could take it over now (`lapsed`).
    static func lookupKey(_ claim: IdempotencyStore.Claim, staleSeconds: Double) -> PostgresQuery {
        """
        SELECT request_hash, state, response_status, response_body, journey_id,
               state = 'released' OR (state = 'in_progress' AND coalesce(lease_until,
                   created_at + make_interval(secs => \(staleSeconds))) < clock_timestamp()) AS lapsed
        FROM idempotency_keys
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key)
        """
    }
}
