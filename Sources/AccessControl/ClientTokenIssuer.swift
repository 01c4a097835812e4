import Cryptography
import Foundation

/// Issues and verifies journey client tokens: short-lived EdDSA JWTs that let the mobile app
/// act on exactly one journey; a second instance with its own key signs dashboard sessions.
///
/// Tokens carry the signing key's `kid` (``TokenKeyring``): previous keys keep verifying the
/// tokens they signed until those expire; an unknown `kid` is `invalid_token` (401).
///
/// ```swift
/// let issuer = try ClientTokenIssuer(environment: ProcessInfo.processInfo.environment)
/// let token = try issuer.issue(journeyID: journey.id, now: clock.now)
/// let claims = try issuer.verify(token, journeyID: pathID, now: clock.now)   // 401/403 otherwise
/// ```
public struct ClientTokenIssuer: Sendable {
    public struct Configuration: Sendable {
        /// Clock difference tolerated on `exp` and `iat` between service instances. Default 5 s.
        public var leeway: TimeInterval
        /// Longest lifetime `issue` accepts. Default 1 h.
        public var maximumLifetime: TimeInterval

        public init(leeway: TimeInterval = 5, maximumLifetime: TimeInterval = 3600) {
            self.leeway = leeway
            self.maximumLifetime = maximumLifetime
        }
    }

    /// The `aud` of every client token.
    public static let audience = "journey-client"
    /// Lifetime of a token unless `issue` is told otherwise: 15 minutes.
    public static let defaultLifetime: TimeInterval = 15 * 60
    /// The environment variable holding the signing key: 32 raw Ed25519 bytes in base64url.
    public static let environmentVariable = "JOURNEYS_CLIENT_TOKEN_KEY"
    /// Earlier client-token keys that still verify, comma-separated (after a rotation).
    public static let previousKeysVariable = "JOURNEYS_CLIENT_TOKEN_KEYS_PREVIOUS"
    /// The dashboard session key: 32 raw Ed25519 bytes in base64url, apart from the client-token key.
    public static let sessionKeyVariable = "JOURNEYS_SESSION_KEY"
    /// Earlier session keys that still verify, comma-separated (after a rotation).
    public static let previousSessionKeysVariable = "JOURNEYS_SESSION_KEYS_PREVIOUS"

    /// The current key (signs, named by `kid`) and previous ones (verify only).
    public let keys: TokenKeyring
    public let configuration: Configuration
    /// True for the fixed key of ``development(configuration:)``, which anyone can read.
    public let isDevelopmentKey: Bool

    public init(signingKey: Ed25519PrivateKey, configuration: Configuration = Configuration()) {
        self.init(keys: TokenKeyring(current: signingKey), configuration: configuration)
    }

    public init(keys: TokenKeyring, configuration: Configuration = Configuration()) {
        self.init(keys: keys, configuration: configuration, isDevelopmentKey: false)
    }

    private init(keys: TokenKeyring, configuration: Configuration, isDevelopmentKey: Bool) {
        self.keys = keys
        self.configuration = configuration
        self.isDevelopmentKey = isDevelopmentKey
    }

    /// Reads the signing key from ``environmentVariable`` and older ones from ``previousKeysVariable``.
    ///
    /// Throws `invalid_configuration` when it is unset or not 32 bytes of base64url; the
    /// message never repeats the value.
    public init(environment: [String: String], configuration: Configuration = Configuration()) throws {
        self.init(
            keys: try TokenKeyring.fromEnvironment(
                environment, current: Self.environmentVariable,
                previous: Self.previousKeysVariable),
            configuration: configuration)
    }

    /// The dashboard session issuer: ``sessionKeyVariable`` and ``previousSessionKeysVariable``.
    public static func sessions(environment: [String: String], configuration: Configuration = Configuration()) throws
        -> ClientTokenIssuer
    {
        ClientTokenIssuer(
            keys: try TokenKeyring.fromEnvironment(
                environment, current: sessionKeyVariable,
                previous: previousSessionKeysVariable),
            configuration: configuration)
    }

    /// DEVELOPMENT ONLY: an issuer with a fixed, publicly known key, for tests and `journeys demo`.
    /// Tokens it signs prove nothing; ``isDevelopmentKey`` is true so a production service
    /// can refuse to start with it.
    public static func development(configuration: Configuration = Configuration()) throws -> ClientTokenIssuer {
        let seed = SHA256.hash("journeys development client-token key: public, never use in production")
        return ClientTokenIssuer(
            keys: TokenKeyring(current: try Ed25519PrivateKey(rawRepresentation: seed)),
            configuration: configuration, isDevelopmentKey: true)
    }

    /// DEVELOPMENT ONLY: the dashboard session issuer of the embedded stack, with its own fixed, public key.
    public static func developmentSessions(configuration: Configuration = Configuration()) throws -> ClientTokenIssuer {
        let seed = SHA256.hash("journeys development dashboard-session key: public, never use in production")
        return ClientTokenIssuer(
            keys: TokenKeyring(current: try Ed25519PrivateKey(rawRepresentation: seed)),
            configuration: configuration, isDevelopmentKey: true)
    }

    /// The key that verifies this issuer's new tokens, for services that only verify.
    public var publicKey: Ed25519PublicKey { keys.publicKey }

    /// A compact JWT for `journeyID`, valid from `now` for `lifetime`, with `tokenID` as its `jti`
    /// (random by default; a replayed answer passes its first one, which signs the same token).
    ///
    /// Throws `invalid_argument` for a lifetime that is not positive or exceeds
    /// ``Configuration/maximumLifetime``.
    public func issue(
        journeyID: UUID, now: Date, lifetime: TimeInterval = defaultLifetime, tokenID: UUID = SecureRandom.uuid()
    ) throws -> String {
        try sign(subject: journeyID, audience: Self.audience, now: now, lifetime: lifetime, tokenID: tokenID)
    }

    private func sign(
        subject: UUID, audience: String, now: Date, lifetime: TimeInterval, tokenID: UUID = SecureRandom.uuid()
    ) throws -> String {
        guard lifetime > 0, lifetime <= configuration.maximumLifetime else {
            throw AccessError(
                .invalidArgument,
                "a token lives more than 0 and at most \(Int(configuration.maximumLifetime)) s")
        }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = ClientTokenClaims(
            journeyID: subject, audience: audience, issuedAt: issuedAt,
            expiresAt: issuedAt.addingTimeInterval(lifetime.rounded(.up)), tokenID: tokenID)
        return try keys.sign(claims: claims)
    }

    /// The claims of `token` if it is this issuer's, unexpired, and for `journeyID`.
    ///
    /// Throws `invalid_token` (401) when it is malformed, signed by another key or algorithm,
    /// for another audience, or issued in the future; `token_expired` (401); and
    /// `wrong_journey` (403) for a valid token of another journey.
    public func verify(_ token: String, journeyID: UUID, now: Date) throws -> ClientTokenClaims {
        let claims = try claims(of: token, audience: Self.audience, now: now)
        guard claims.journeyID == journeyID else {
            throw AccessError(.wrongJourney, "the client token belongs to another journey")
        }
        return claims
    }

    /// Audience of dashboard session tokens; a journey client token is never one.
    public static let sessionAudience = "journeys-dashboard"

    /// A dashboard session for the API key `keyID`: the key itself never leaves the sign-in request.
    public func issueSession(keyID: UUID, now: Date, lifetime: TimeInterval) throws -> String {
        try sign(subject: keyID, audience: Self.sessionAudience, now: now, lifetime: lifetime)
    }

    /// The API key id of a valid, unexpired dashboard session token; errors as for ``verify(_:journeyID:now:)``.
    public func verifySession(_ token: String, now: Date) throws -> UUID {
        try claims(of: token, audience: Self.sessionAudience, now: now).journeyID
    }

    private func claims(of token: String, audience: String, now: Date) throws -> ClientTokenClaims {
        let verified = try keys.verify(token, what: "client token")
        guard verified.audience == [audience] else {
            throw AccessError(.invalidToken, "the client token is not meant for this service")
        }
        guard let claims = try? verified.decodeClaims(as: ClientTokenClaims.self) else {
            throw AccessError(.invalidToken, "the client token's claims are malformed")
        }
        guard now.addingTimeInterval(-configuration.leeway) < claims.expiresAt else {
            throw AccessError(.tokenExpired, "the client token has expired; ask for a new one")
        }
        guard claims.issuedAt <= now.addingTimeInterval(configuration.leeway), claims.issuedAt < claims.expiresAt else {
            throw AccessError(.invalidToken, "the client token is not valid yet")
        }
        return claims
    }
}
