import Cryptography
import Foundation
import JourneyDomain
import Postgres

extension SubjectVault {
    /// The subject's unwrapped data key; created (race-safe across processes) when `creating`.
    ///
    /// The cache is filled only outside a transaction: a key read or created inside one might
    /// belong to a row that is rolled back. Inside a transaction a cached key is used only after
    /// `erased_at` is checked (one indexed read, row shared-locked): an erasure by any process is
    /// refused at once by starts and openings, not after the cache's lifetime.
    func dataKey(for subject: SubjectReference, creating: Bool, on connection: PostgresConnection) throws -> SecretKey {
        let cacheable = !connection.isInTransaction
        if let key = cache.key(for: subject.rawValue) {
            // Inside a transaction (a start, an opening) the key must not outlive an erasure by
            // another process: its row is read, shared-locked until commit, so an erasure waits for
            // this transaction and then finds what it wrote.
            guard !cacheable else { return key }
            let erased = try connection.query(PrivacyStatements.isErasedLocking(subject: subject.rawValue)).first
                .map { try $0.decode(0, as: Bool.self) }
            guard erased == true else { return key }
            cache.suppress(subject.rawValue)
            throw PrivacyError(.subjectErased, "the subject was erased; its data key no longer exists")
        }
        guard creating else {
            guard let stored = try storedKey(of: subject, on: connection) else {
                throw PrivacyError(.unknownSubject, "no data key exists for this subject")
            }
            let key = try unwrap(stored, subject: subject)
            if cacheable { cache.store(key, for: subject.rawValue) }
            return key
        }
        let key = SecretKey.random(byteCount: AESGCM.keyByteCount)
        let keyID = configuration.activeKeyID
        let wrapped = try KeyWrap.wrap(key, subject: subject, keyID: keyID, kek: configuration.activeKey)
        // One round trip: the new key, or the subject's row when it has one. A racing first use
        // (any process) wins or loses here; the loser reads the winner's key.
        let rows = try connection.query(
            PrivacyStatements.insertOrReadKey(subject: subject.rawValue, wrapped: wrapped, keyID: keyID))
        if let row = rows.first {
            let found =
                try row.decode(3, as: Bool.self)
                ? key
                : try unwrap(
                    StoredKey(wrapped: try row.decode(0), keyID: try row.decode(1), erased: try row.decode(2)),
                    subject: subject)
            if cacheable { cache.store(found, for: subject.rawValue) }
            return found
        }
        // The winner of a race committed after this statement's snapshot: read it now.
        guard let stored = try storedKey(of: subject, on: connection) else {
            throw PrivacyError(.unknownSubject, "the subject's data key was neither created nor found")
        }
        let winner = try unwrap(stored, subject: subject)
        if cacheable { cache.store(winner, for: subject.rawValue) }
        return winner
    }

    /// A row of `subject_keys`.
    struct StoredKey {
        var wrapped: Data?
        var keyID: String
        var erased: Bool
    }

    func storedKey(of subject: SubjectReference, on connection: PostgresConnection) throws -> StoredKey? {
        let rows = try connection.query(PrivacyStatements.storedKey(subject: subject.rawValue))
        guard let row = rows.first else { return nil }
        return StoredKey(wrapped: try row.decode(0), keyID: try row.decode(1), erased: try row.decode(2))
    }

    func unwrap(_ stored: StoredKey, subject: SubjectReference) throws -> SecretKey {
        guard !stored.erased, let wrapped = stored.wrapped else {
            throw PrivacyError(.subjectErased, "the subject was erased; its data key no longer exists")
        }
        guard let kek = configuration.keyEncryptionKeys[stored.keyID] else {
            throw PrivacyError(
                .unknownKeyID,
                "the subject's data key is wrapped under key-encryption key \(stored.keyID), which is not configured")
        }
        return try KeyWrap.unwrap(wrapped, subject: subject, keyID: stored.keyID, kek: kek)
    }
}
