import Foundation
import Postgres

/// Lookups of keys on a caller's connection, for modules that refer to keys (webhook endpoints
/// belong to a key) without reading `api_keys` themselves.
extension APIKeyStore {
    /// The id of each existing key among `prefixes` (revoked ones included), by prefix.
    public static func keyIDs(prefixes: [String], on connection: PostgresConnection) throws -> [String: UUID] {
        guard !prefixes.isEmpty else { return [:] }
        var ids: [String: UUID] = [:]
        for row in try connection.query(AccessControlStatements.keyIDs(prefixes: prefixes)) {
            ids[try row.decode(0)] = try row.decode(1)
        }
        return ids
    }

    /// The key with id `id` or prefix `prefix` (either may be nil) and whether it is revoked; nil
    /// when none matches. With `lock`, row-locks it for the caller's transaction.
    public static func key(
        id: UUID?, prefix: String?, lock: Bool = false,
        on connection: PostgresConnection
    ) throws -> (id: UUID, revoked: Bool)? {
        try connection.query(AccessControlStatements.keyReference(id: id, prefix: prefix, lock: lock)).first.map {
            (try $0.decode("id"), try $0.decode("revoked"))
        }
    }
}
