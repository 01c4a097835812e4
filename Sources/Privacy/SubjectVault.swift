import Foundation
import JourneyDomain
import Postgres

/// Seals personal data per subject before it enters the event log, and crypto-shreds it on erasure.
///
/// Each subject gets a random 32-byte data key on first use, stored in `subject_keys` wrapped
/// under the active key-encryption key. Fields are sealed with AES-256-GCM under that key,
/// bound to the subject and field name. ``erase(subject:)`` wipes the wrapped key and leaves
/// a tombstone: every sealed value of the subject becomes unreadable, the log is untouched.
///
/// The methods taking a `PostgresConnection` run on it, inside the caller's transaction if
/// one is open; the others borrow a connection of `client`. In a `REPEATABLE READ` or
/// `SERIALIZABLE` transaction, two first uses racing for one subject may end in a
/// `serialization_failure`: retry the transaction.
///
/// Unwrapped data keys are cached per process for `configuration.dataKeyCacheLifetime`
/// (default 30 s). An erasure in this process takes effect at once; an erasure by another
/// process reaches this one within that lifetime, during which this process may still seal
/// and open the subject's fields. Set the lifetime to `.zero` to close that window.
public final class SubjectVault: Sendable {
    public let configuration: PrivacyConfiguration
    /// Derives subject references with the configured key.
    public let referencer: SubjectReferencer
    let client: PostgresClient
    let cache: DataKeyCache

    /// `now` drives the key cache's expiry (tests pass a manual clock).
    public init(
        client: PostgresClient,
        configuration: PrivacyConfiguration,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.client = client
        self.configuration = configuration
        self.referencer = SubjectReferencer(configuration: configuration)
        self.cache = DataKeyCache(lifetime: configuration.dataKeyCacheLifetime, now: now)
    }

    // MARK: - Fields

    /// Seals `plaintext` as `field` of `subject`, creating the subject's data key on first use.
    ///
    /// Throws `subject_erased` for an erased subject.
    public func seal(_ plaintext: String, field: String, subject: SubjectReference) async throws -> SealedField {
        try await client.withConnection { try self.seal(plaintext, field: field, subject: subject, on: $0) }
    }

    /// ``seal(_:field:subject:)`` on `connection`.
    public func seal(
        _ plaintext: String, field: String, subject: SubjectReference, on connection: PostgresConnection
    ) throws -> SealedField {
        let key = try dataKey(for: subject, creating: true, on: connection)
        return try Self.seal(plaintext, field: field, subject: subject, key: key)
    }

    /// Seals each `(plaintext, field)` of `subject` with one lookup of its data key, on `connection`.
    public func seal(
        _ fields: [(plaintext: String, field: String)], subject: SubjectReference, on connection: PostgresConnection
    ) throws -> [SealedField] {
        let key = try dataKey(for: subject, creating: true, on: connection)
        return try fields.map { try Self.seal($0.plaintext, field: $0.field, subject: subject, key: key) }
    }

    /// Opens a value sealed as `field` of `subject`.
    ///
    /// Throws `subject_erased`, `unknown_subject`, `unknown_key_id`, or `decryption_failed`
    /// when the value was sealed for another subject or field, or was altered.
    public func open(_ sealed: SealedField, field: String, subject: SubjectReference) async throws -> String {
        try Self.checkKeyID(sealed, field: field, subject: subject)
        return try await client.withConnection { try self.open(sealed, field: field, subject: subject, on: $0) }
    }

    /// ``open(_:field:subject:)`` on `connection`.
    public func open(
        _ sealed: SealedField, field: String, subject: SubjectReference, on connection: PostgresConnection
    ) throws -> String {
        try Self.checkKeyID(sealed, field: field, subject: subject)
        let key = try dataKey(for: subject, creating: false, on: connection)
        return try FieldEnvelope.open(sealed.ciphertext, key: key, subject: subject, field: field)
    }

    static func seal(_ plaintext: String, field: String, subject: SubjectReference, key: SecretKey) throws -> SealedField {
        SealedField(
            ciphertext: try FieldEnvelope.seal(plaintext, key: key, subject: subject, field: field),
            keyID: subject.rawValue)
    }

    /// A subject has one data key, whose id is its reference.
    static func checkKeyID(_ sealed: SealedField, field: String, subject: SubjectReference) throws {
        guard sealed.keyID == subject.rawValue else {
            throw PrivacyError(.decryptionFailed, "the sealed \(field) belongs to another subject's key")
        }
    }

    // MARK: - Erasure

    /// Wipes the subject's data key and stamps `erased_at`; idempotent.
    ///
    /// Throws `unknown_subject` when nothing was ever sealed for the subject.
    public func erase(subject: SubjectReference) async throws -> ErasureResult {
        try await client.withConnection { try self.erase(subject: subject, on: $0) }
    }

    /// ``erase(subject:)`` on `connection`. The cached key is dropped before the statement runs.
    public func erase(subject: SubjectReference, on connection: PostgresConnection) throws -> ErasureResult {
        cache.suppress(subject.rawValue)
        let ref = subject.rawValue
        // Twice at most: a key created between the two statements is erased on the second pass.
        for _ in 0..<2 {
            let erased = try connection.query(PrivacyStatements.erase(subject: ref))
            if let row = erased.first {
                return ErasureResult(subject: subject, erasedAt: try row.decode(0), wasAlreadyErased: false)
            }
            let earlier = try connection.query(PrivacyStatements.erasedAt(subject: ref))
            guard let row = earlier.first else { break }
            if let erasedAt = try row.decode(0, as: Date?.self) {
                return ErasureResult(subject: subject, erasedAt: erasedAt, wasAlreadyErased: true)
            }
        }
        throw PrivacyError(.unknownSubject, "no data key was ever created for this subject")
    }

    /// Whether the subject's key was never created, is live, or was erased (and when).
    public func keyStatus(subject: SubjectReference) async throws -> SubjectKeyStatus {
        let rows = try await client.query(PrivacyStatements.erasedAt(subject: subject.rawValue))
        guard let row = rows.first else { return .unknown }
        return try row.decode(0, as: Date?.self).map { .erased(at: $0) } ?? .live
    }

    /// Whether the subject was erased; false for a subject never seen.
    public func isErased(subject: SubjectReference) async throws -> Bool {
        try await client.withConnection { try self.isErased(subject: subject, on: $0) }
    }

    /// ``isErased(subject:)`` on `connection`.
    public func isErased(subject: SubjectReference, on connection: PostgresConnection) throws -> Bool {
        let rows = try connection.query(PrivacyStatements.isErased(subject: subject.rawValue))
        return try rows.first?.decode(0, as: Bool.self) ?? false
    }
}
