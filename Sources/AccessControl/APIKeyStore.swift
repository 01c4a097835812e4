import Cryptography
import Foundation
import Postgres

/// API keys in the `api_keys` table: create, list, revoke, and authenticate a request.
///
/// ```swift
/// let store = APIKeyStore(client: database.app)
/// let principal = try await store.authenticate(authorizationHeader: request.header("Authorization"))
/// try principal.require(.journeysWrite)
/// ```
public struct APIKeyStore: Sendable {
    public struct Configuration: Sendable {
        /// How stale `last_used_at` may be before an authentication updates it. Default 60 s.
        public var touchInterval: TimeInterval
        /// Longest key name. Default 100 characters (the table's limit).
        public var maximumNameLength: Int
        /// How long a key that authenticated is trusted without reading `api_keys` again. Default
        /// 5 s: a key revoked by another process (`journeys keys revoke`) still authenticates
        /// here for at most that long; one revoked through this store stops at once. 0 reads the
        /// table on every request.
        public var verifiedKeyLifetime: TimeInterval

        public init(touchInterval: TimeInterval = 60, maximumNameLength: Int = 100, verifiedKeyLifetime: TimeInterval = 5) {
            self.touchInterval = touchInterval
            self.maximumNameLength = maximumNameLength
            self.verifiedKeyLifetime = verifiedKeyLifetime
        }
    }

    public let client: PostgresClient
    public let configuration: Configuration
    private let now: @Sendable () -> Date
    private let verified: VerifiedKeyCache

    /// `now` stamps creation, revocation and last use; tests pass a controllable clock.
    public init(
        client: PostgresClient, configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.configuration = configuration
        self.now = now
        self.verified = VerifiedKeyCache(lifetime: configuration.verifiedKeyLifetime)
    }

    /// Whether `other` shares this store's verified-key cache (one per process: `JourneyApp`
    /// hands every route group the same store).
    public func sharesVerifiedKeys(with other: APIKeyStore) -> Bool { verified === other.verified }

    /// Creates a key of `tenant` (default: the default tenant); returns its record and its text,
    /// which exists nowhere else afterwards.
    ///
    /// Throws `invalid_argument` for an empty or overlong name, a name with control
    /// characters, no scopes or a malformed tenant name, `tenant_not_found` naming an unknown tenant.
    public func create(name: String, scopes: [Scope], tenant: String = Tenant.defaultName) async throws
        -> (key: APIKey, plaintext: String)
    {
        let name = try validName(name)
        let tenant = try Tenant.validName(tenant)
        guard !scopes.isEmpty else {
            throw AccessError(.invalidArgument, "a key needs at least one scope; allowed: \(Scope.allowedValues)")
        }
        let scopes = Set(scopes).sorted().map(\.rawValue)
        var attempt = 0
        while true {
            attempt += 1
            let credential = APIKeyCredential.generate()
            do {
                let rows = try await client.query(
                    AccessControlStatements.insertKey(
                        id: SecureRandom.uuid(), name: name, prefix: credential.prefix, secretHash: credential.hash,
                        scopes: scopes, tenant: tenant, createdAt: now()))
                return (try Self.decodeOne(rows), credential.text)
            } catch let error as PostgresError where error.code == .foreignKeyViolation {
                throw AccessError(.tenantNotFound, "no tenant is named '\(tenant)' (journeys tenants create \(tenant))")
            } catch let error as PostgresError
                where error.code == .uniqueViolation && error.constraint == "api_keys_prefix_key" && attempt < 3
            {
                continue  // 40-bit prefixes collide rarely; draw another key.
            }
        }
    }

    /// Every key, revoked ones included, oldest first.
    public func list() async throws -> [APIKey] {
        try await client.query(AccessControlStatements.listKeys).map(Self.decode)
    }

    /// Revokes the key with this id (UUID) or prefix; revoking twice keeps the first time.
    ///
    /// Throws `invalid_argument` for a reference of neither shape, `key_not_found` for no match.
    @discardableResult
    public func revoke(_ reference: String) async throws -> APIKey {
        let reference = reference.trimmingCharacters(in: .whitespaces)
        let id = UUID(uuidString: reference)
        let prefix = APIKeyCredential.isPrefix(reference.lowercased()) ? reference.lowercased() : nil
        guard id != nil || prefix != nil else {
            throw AccessError(
                .invalidArgument,
                "expected a key id (UUID) or prefix (\(APIKeyCredential.prefixLength) characters of a-z, 2-7)")
        }
        let rows = try await client.query(AccessControlStatements.revoke(id: id, prefix: prefix, at: now()))
        guard rows.first != nil else {
            throw AccessError(.keyNotFound, "no API key has the id or prefix '\(reference)'")
        }
        let key = try Self.decodeOne(rows)
        verified.remove(keyID: key.id)
        return key
    }

    /// The principal of the key a request presents, from `Authorization: Bearer <key>` or,
    /// failing that, an `X-API-Key` header.
    ///
    /// Throws `unauthorized` (401): ``AccessError/missingCredentials`` when neither header is
    /// set, otherwise ``AccessError/invalidCredentials`` whether the key is malformed,
    /// unknown or revoked, or both headers are set. The secret's hash is compared in
    /// constant time, also when no key has the prefix.
    public func authenticate(authorizationHeader: String?, apiKeyHeader: String? = nil) async throws -> Principal {
        let presented = try Self.presentedKey(authorization: authorizationHeader, apiKey: apiKeyHeader)
        guard let credential = APIKeyCredential(parsing: presented) else { throw AccessError.invalidCredentials }
        let at = now()
        if let entry = verified.entry(for: credential.hash, at: at) {
            if Self.isStale(entry.touchedAt ?? entry.key.lastUsedAt, at: at, interval: configuration.touchInterval) {
                await touch(entry.key, at: at)
                verified.touched(credential.hash, at: at)
            }
            return entry.key.principal
        }
        let rows = try await client.query(AccessControlStatements.keyWithHash(prefix: credential.prefix))
        let stored = try rows.first.map { (key: try Self.decode($0), hash: try $0.decode("secret_hash", as: Data.self)) }
        let matches = ConstantTime.equals(credential.hash, stored?.hash ?? Self.unmatchableHash)
        guard matches, let key = stored?.key, !key.isRevoked else { throw AccessError.invalidCredentials }
        let touched = Self.isStale(key.lastUsedAt, at: at, interval: configuration.touchInterval)
        if touched { await touch(key, at: at) }
        verified.store(
            VerifiedKeyCache.Entry(key: key, verifiedAt: at, touchedAt: touched ? at : key.lastUsedAt),
            for: credential.hash)
        return key.principal
    }

    /// The principal of the active key `id` (a dashboard session names its key by id).
    ///
    /// Throws ``AccessError/invalidCredentials`` when the key is unknown or revoked.
    public func principal(id: UUID) async throws -> Principal {
        let rows = try await client.query(AccessControlStatements.key(id: id))
        guard let key = try rows.first.map(Self.decode), !key.isRevoked else { throw AccessError.invalidCredentials }
        return key.principal
    }

    // MARK: - Helpers

    /// Compared against when no key has the prefix; no SHA-256 output is known to equal it.
    static let unmatchableHash = Data(repeating: 0, count: SHA256.byteCount)

    /// Whether a use last recorded at `lastUsed` is older than `interval` at `now`.
    static func isStale(_ lastUsed: Date?, at now: Date, interval: TimeInterval) -> Bool {
        guard let lastUsed else { return true }
        return lastUsed <= now.addingTimeInterval(-interval)
    }

    /// Records use at most once per touch interval; last use is advisory, so a failed
    /// update never refuses a valid key.
    private func touch(_ key: APIKey, at now: Date) async {
        let stale = now.addingTimeInterval(-configuration.touchInterval)
        _ = try? await client.query(AccessControlStatements.touch(id: key.id, at: now, unlessUsedAfter: stale))
    }

    static func presentedKey(authorization: String?, apiKey: String?) throws -> String {
        func present(_ value: String?) -> String? {
            value.flatMap { $0.trimmingHTTPWhitespace().isEmpty ? nil : $0 }
        }
        switch (present(authorization), present(apiKey)) {
        case (nil, nil):
            throw AccessError.missingCredentials
        case (let header?, nil):
            guard let token = BearerCredentials.token(fromAuthorization: header) else { throw AccessError.invalidCredentials }
            return token
        case (nil, let key?):
            return String(key.trimmingHTTPWhitespace())
        case (_?, _?):
            throw AccessError.invalidCredentials
        }
    }

    private func validName(_ name: String) throws -> String {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw AccessError(.invalidArgument, "a key needs a name") }
        guard name.unicodeScalars.count <= configuration.maximumNameLength else {
            throw AccessError(.invalidArgument, "a key name has at most \(configuration.maximumNameLength) characters")
        }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw AccessError(.invalidArgument, "a key name cannot contain control characters")
        }
        return name
    }

    static func decodeOne(_ rows: PostgresRows) throws -> APIKey {
        guard let row = rows.first else { throw PostgresError(.decodingFailed, "api_keys returned no row") }
        return try decode(row)
    }

    static func decode(_ row: PostgresRow) throws -> APIKey {
        let scopes = try row.decode("scopes", as: String.self).split(separator: ",")
            .compactMap { Scope(rawValue: String($0)) }.sorted()
        return APIKey(
            id: try row.decode("id"), name: try row.decode("name"), prefix: try row.decode("prefix"),
            scopes: scopes, createdAt: try row.decode("created_at"),
            lastUsedAt: try row.decode("last_used_at"), revokedAt: try row.decode("revoked_at"), tenant: try row.decode("tenant"))
    }
}
