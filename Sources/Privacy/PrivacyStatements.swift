import Foundation
import Postgres

/// Every statement over `subject_keys`; values are binds.
enum PrivacyStatements {
    /// Inserts a subject's wrapped data key unless the subject already has a row.
    static func insertKey(subject: String, wrapped: Data, keyID: String) -> PostgresQuery {
        """
        INSERT INTO subject_keys (subject_ref, wrapped_key, kek_id)
        VALUES (\(subject), \(wrapped), \(keyID))
        ON CONFLICT (subject_ref) DO NOTHING
        """
    }

    /// The subject's wrapped key, key-encryption key id and whether it was erased.
    static func storedKey(subject: String) -> PostgresQuery {
        """
        SELECT wrapped_key, kek_id, erased_at IS NOT NULL AS erased
        FROM subject_keys WHERE subject_ref = \(subject)
        """
    }

    /// Wipes a key not yet erased and stamps `erased_at`, returning it.
    static func erase(subject: String) -> PostgresQuery {
        """
        UPDATE subject_keys SET wrapped_key = NULL, erased_at = now()
        WHERE subject_ref = \(subject) AND erased_at IS NULL RETURNING erased_at
        """
    }

    static func erasedAt(subject: String) -> PostgresQuery {
        "SELECT erased_at FROM subject_keys WHERE subject_ref = \(subject)"
    }

    static func isErased(subject: String) -> PostgresQuery {
        """
        SELECT erased_at IS NOT NULL FROM subject_keys WHERE subject_ref = \(subject)
        """
    }
}
