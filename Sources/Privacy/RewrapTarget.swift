import Foundation
import Postgres

/// Values wrapped under a KEK in one table, which ``KEKRotation`` re-wraps under the active KEK.
///
/// Two tables hold them: `subject_keys` (``SubjectKeyRewrap``) and the sealed secrets of
/// `webhook_endpoints` (in `OutboundWebhooks`).
public protocol RewrapTarget: Sendable {
    /// What the rows hold, for counts and messages, e.g. `subject keys`.
    var noun: String { get }
    /// Live wrapped values (erased ones left out) by the id of the KEK that wraps them.
    func census(on connection: PostgresConnection) throws -> [String: Int]
    /// Up to `limit` live rows not under `activeKeyID`, of `keyID` when given, in id order after `cursor`.
    func rows(
        after cursor: String?, notUnder activeKeyID: String, keyID: String?, limit: Int,
        on connection: PostgresConnection
    ) throws -> [WrappedValue]
    /// The value of `row` re-wrapped under `activeKeyID`; throws when `row` does not unwrap under its KEK.
    func rewrap(_ row: WrappedValue, activeKeyID: String) throws -> Data
    /// Replaces `row`'s wrapping if it is still the one read; false when it changed meanwhile.
    func replace(_ row: WrappedValue, with rewrapped: Data, keyID: String, on connection: PostgresConnection) throws -> Bool
}

/// One wrapped value as read: the row's id, its bytes and the id of the KEK that wraps them.
public struct WrappedValue: Sendable, Hashable {
    public let id: String
    public let wrapped: Data
    public let keyID: String

    public init(id: String, wrapped: Data, keyID: String) {
        self.id = id
        self.wrapped = wrapped
        self.keyID = keyID
    }
}
