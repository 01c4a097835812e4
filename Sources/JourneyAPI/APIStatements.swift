import Foundation
import HTTPServer
import Postgres

/// Every statement of the API over its own table, `idempotency_keys` (schema/0004); values are binds.
enum APIStatements {
    /// Inserts the in-progress row; returns a row only when the key was free.
    static func claimKey(_ claim: IdempotencyStore.Claim, journeyID: String) -> PostgresQuery {
        """
        INSERT INTO idempotency_keys (api_key_id, key, request_hash, journey_id)
        VALUES (\(claim.apiKeyID), \(claim.key), \(claim.requestHash), \(journeyID))
        ON CONFLICT (api_key_id, key) DO NOTHING RETURNING 1
        """
    }

    /// Stores the answer while the key is still in progress or released; returns a row when it did.
    static func completeKey(_ claim: IdempotencyStore.Claim, response: HTTPResponse) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'completed', response_status = \(response.status.code),
            response_body = \(String(decoding: response.body, as: UTF8.self)), completed_at = now()
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key) AND state IN ('in_progress', 'released')
        RETURNING 1
        """
    }

    /// Releases the in-progress key of `journeyID` (no answer stored); returns a row when it did.
    static func releaseKey(_ claim: IdempotencyStore.Claim, journeyID: String) -> PostgresQuery {
        """
        UPDATE idempotency_keys SET state = 'released', completed_at = now()
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key) AND journey_id = \(journeyID)
            AND state = 'in_progress'
        RETURNING 1
        """
    }

    static func lookupKey(_ claim: IdempotencyStore.Claim, staleSeconds: Double) -> PostgresQuery {
        """
        SELECT request_hash, state, response_status, response_body, journey_id,
               created_at < now() - make_interval(secs => \(staleSeconds)) AS stale
        FROM idempotency_keys
        WHERE api_key_id = \(claim.apiKeyID) AND key = \(claim.key)
        """
    }
}
