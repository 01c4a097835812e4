import Foundation
import Postgres

/// The statements of ``KEKRotation`` over `subject_keys` (run as the schema owner).
extension PrivacyStatements {
    /// Live (not erased) keys per KEK id.
    static func liveKeysByKEK() -> PostgresQuery {
        """
        SELECT kek_id, count(*) FROM subject_keys WHERE erased_at IS NULL GROUP BY kek_id
        """
    }

    /// Live keys not under `activeKeyID` (and under `keyID` when given), after `cursor` in reference order.
    static func keysToRewrap(after cursor: String, notUnder activeKeyID: String, keyID: String?, limit: Int) -> PostgresQuery {
        """
        SELECT subject_ref, wrapped_key, kek_id FROM subject_keys
        WHERE erased_at IS NULL AND kek_id <> \(activeKeyID) AND subject_ref > \(cursor)
          AND (\(nullable: keyID)::text IS NULL OR kek_id = \(nullable: keyID))
        ORDER BY subject_ref LIMIT \(limit)
        """
    }

    /// Replaces a live key's wrapping if it still holds `old` under `fromKeyID`.
    static func rewrapKey(subject: String, from old: Data, fromKeyID: String, to new: Data, keyID: String) -> PostgresQuery {
        """
        UPDATE subject_keys SET wrapped_key = \(new), kek_id = \(keyID)
        WHERE subject_ref = \(subject) AND erased_at IS NULL AND kek_id = \(fromKeyID) AND wrapped_key = \(old)
        """
    }
}
