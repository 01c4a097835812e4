import Foundation

/// The claims of a journey client token: which journey, for whom, and for how long.
public struct ClientTokenClaims: Sendable, Hashable, Codable {
    /// `sub`: the one journey the token may act on.
    public let journeyID: UUID
    /// `aud`: always ``ClientTokenIssuer/audience``.
    public let audience: String
    /// `iat`, whole seconds.
    public let issuedAt: Date
    /// `exp`, whole seconds.
    public let expiresAt: Date
    /// `jti`: unique per token, for audit and a future deny-list.
    public let tokenID: UUID

    public init(journeyID: UUID, audience: String, issuedAt: Date, expiresAt: Date, tokenID: UUID) {
        self.journeyID = journeyID
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.tokenID = tokenID
    }

    enum CodingKeys: String, CodingKey {
        case journeyID = "sub", audience = "aud", issuedAt = "iat", expiresAt = "exp", tokenID = "jti"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        journeyID = try Self.uuid(container, .journeyID)
        audience = try container.decode(String.self, forKey: .audience)
        issuedAt = try container.decode(Date.self, forKey: .issuedAt)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        tokenID = try Self.uuid(container, .tokenID)
    }

    /// Ids are written in lowercase, the form the rest of the service prints.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(journeyID.uuidString.lowercased(), forKey: .journeyID)
        try container.encode(audience, forKey: .audience)
        try container.encode(issuedAt, forKey: .issuedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(tokenID.uuidString.lowercased(), forKey: .tokenID)
    }

    private static func uuid(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> UUID {
        let text = try container.decode(String.self, forKey: key)
        guard let id = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a UUID")
        }
        return id
    }
}
