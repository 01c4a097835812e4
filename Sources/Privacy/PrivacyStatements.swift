import Foundation
import Postgres

/// Every statement over `subject_keys`; values are binds.
enum PrivacyStatements {
    /// Inserts a subject's wrapped data key unless the subject already has a row; answers the
    /// row as `storedKey` does plus whether it was inserted, or the existing row (no row when a
    /// racing insert committed after the statement's snapshot).
    static func insertOrReadKey(subject: String, wrapped: Data, keyID: String) -> PostgresQuery {
        """
        WITH inserted AS (
            INSERT INTO subject_keys (subject_ref, wrapped_key, kek_id)
            VALUES (\(subject), \(wrapped), \(keyID))
            ON CONFLICT (subject_ref) DO NOTHING
            RETURNING wrapped_key, kek_id, false AS erased, true AS inserted
        )
        SELECT wrapped_key, kek_id, erased, inserted FROM inserted
        UNION ALL
        SELECT wrapped_key, kek_id, erased_at IS NOT NULL, false FROM subject_keys WHERE subject_ref = \(subject)
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

    /// Whether the subject was erased, locking its row until commit (an erasure waits for the caller).
    static func isErasedLocking(subject: String) -> PostgresQuery {
        """
        SELECT erased_at IS NOT NULL FROM subject_keys WHERE subject_ref = \(subject) FOR SHARE
        """
    }

    static func isErased(subject: String) -> PostgresQuery {
        """
        SELECT erased_at IS NOT NULL FROM subject_keys WHERE subject_ref = \(subject)
        """
    }
}
