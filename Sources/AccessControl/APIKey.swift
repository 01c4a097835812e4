import Foundation

/// A stored API key as listed: everything but its secret, which is never kept.
public struct APIKey: Sendable, Hashable {
    public let id: UUID
    public let name: String
    /// The public lookup part of the key text.
    public let prefix: String
    /// Sorted in declaration order of ``Scope``.
    public let scopes: [Scope]
    public let createdAt: Date
    /// Updated at most once per ``APIKeyStore/Configuration/touchInterval``.
    public let lastUsedAt: Date?
    public let revokedAt: Date?
    /// The tenant that owns the key; it reads only that tenant's journeys.
    public let tenant: String

    public init(
        id: UUID, name: String, prefix: String, scopes: [Scope], createdAt: Date,
        lastUsedAt: Date?, revokedAt: Date?, tenant: String = Tenant.defaultName
    ) {
        self.id = id
        self.name = name
        self.prefix = prefix
        self.scopes = scopes
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.tenant = tenant
    }

    public var isRevoked: Bool { revokedAt != nil }

    /// The principal this key authenticates as.
    public var principal: Principal {
        Principal(keyID: id, name: name, prefix: prefix, scopes: Set(scopes), tenant: tenant)
    }
}
