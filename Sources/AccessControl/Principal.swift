import Foundation

/// Who an authenticated request acts for: an API key, the scopes it holds and its tenant.
public struct Principal: Sendable, Hashable {
    /// The key's id.
    public let keyID: UUID
    /// The key's name, for audit actors and logs.
    public let name: String
    /// The key's public prefix.
    public let prefix: String
    /// The scopes the key was created with.
    public let scopes: Set<Scope>
    /// The key's tenant: every read is confined to its journeys (another tenant's journey is a 404).
    public let tenant: String

    public init(keyID: UUID, name: String, prefix: String, scopes: Set<Scope>, tenant: String = Tenant.defaultName) {
        self.keyID = keyID
        self.name = name
        self.prefix = prefix
        self.scopes = scopes
        self.tenant = tenant
    }

    /// Whether the key holds `scope`, directly or through `admin`.
    public func allows(_ scope: Scope) -> Bool {
        scopes.contains { $0.grants(scope) }
    }

    /// Throws `forbidden` (403), naming `scope`, unless the key holds it.
    public func require(_ scope: Scope) throws {
        guard allows(scope) else { throw AccessError.forbidden(missing: scope) }
    }

    /// An actor name for the audit trail, e.g. `api-key:abcd2345`.
    public var actor: String { "api-key:\(prefix)" }
}
