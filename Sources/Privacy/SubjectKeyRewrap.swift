import Foundation
import JourneyDomain
import Postgres

/// The data keys of `subject_keys` as a ``RewrapTarget``: erased subjects hold no key and are left out.
public struct SubjectKeyRewrap: RewrapTarget {
    let privacy: PrivacyConfiguration

    public init(privacy: PrivacyConfiguration) {
        self.privacy = privacy
    }

    public var noun: String { "subject keys" }

    public func census(on connection: PostgresConnection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try connection.query(PrivacyStatements.liveKeysByKEK()) {
            counts[try row.decode(0, as: String.self)] = Int(try row.decode(1, as: Int64.self))
        }
        return counts
    }

    public func rows(
        after cursor: String?, notUnder activeKeyID: String, keyID: String?, limit: Int,
        on connection: PostgresConnection
    ) throws -> [WrappedValue] {
        try connection.query(
            PrivacyStatements.keysToRewrap(
                after: cursor ?? "", notUnder: activeKeyID, keyID: keyID,
                limit: limit)
        ).map { row in
            WrappedValue(id: try row.decode(0), wrapped: try row.decode(1), keyID: try row.decode(2))
        }
    }

    public func rewrap(_ row: WrappedValue, activeKeyID: String) throws -> Data {
        let subject = SubjectReference(row.id)
        guard let kek = privacy.keyEncryptionKeys[row.keyID], let active = privacy.keyEncryptionKeys[activeKeyID] else {
            throw PrivacyError(
                .unknownKeyID, "a subject key is wrapped under key-encryption key \(row.keyID), which is not configured")
        }
        let dataKey = try KeyWrap.unwrap(row.wrapped, subject: subject, keyID: row.keyID, kek: kek)
        return try KeyWrap.wrap(dataKey, subject: subject, keyID: activeKeyID, kek: active)
    }

    public func replace(_ row: WrappedValue, with rewrapped: Data, keyID: String, on connection: PostgresConnection) throws
        -> Bool
    {
        try connection.query(
            PrivacyStatements.rewrapKey(
                subject: row.id, from: row.wrapped, fromKeyID: row.keyID,
                to: rewrapped, keyID: keyID)
        ).affectedRows == 1
    }
}
