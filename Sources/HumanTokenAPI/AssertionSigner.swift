import Cryptography
import Foundation
import Synchronization

/// Signs the OAuth2 JWT-bearer assertions Unico's token endpoint accepts.
///
/// Header `{"alg":"RS256","typ":"JWT"}` and exactly five claims: `iss`, `aud`, `scope` (`"*"`),
/// `iat` and `exp`. Unico refuses an assertion it has seen before, and RS256 is deterministic,
/// so two assertions signed within one second differ by a `exp` one second shorter each time.
final class AssertionSigner: Sendable {
    /// The five claims, in the only shape Unico accepts.
    struct Claims: Codable, Sendable, Hashable {
        var iss: String
        var aud: String
        var scope: String
        var iat: Int64
        var exp: Int64
    }

    /// The longest lifetime Unico allows, in seconds.
    static let maximumLifetime: Int64 = 3600

    private let issuer: String
    private let audience: String
    private let key: RSAPrivateKey
    private let lastIssued = Mutex<(iat: Int64, lifetime: Int64)>((0, 0))

    init(issuer: String, audience: String, key: RSAPrivateKey) {
        self.issuer = issuer
        self.audience = audience
        self.key = key
    }

    /// The claims for an assertion issued at `now`, never equal to the previous one.
    func claims(at now: Date) -> Claims {
        let iat = Int64(now.timeIntervalSince1970.rounded(.down))
        let lifetime = lastIssued.withLock { last -> Int64 in
            let lifetime = last.iat == iat && last.lifetime > 60 ? last.lifetime - 1 : Self.maximumLifetime
            last = (iat, lifetime)
            return lifetime
        }
        return Claims(iss: issuer, aud: audience, scope: "*", iat: iat, exp: iat + lifetime)
    }

    /// A signed compact JWS for an assertion issued at `now`.
    func assertion(at now: Date) throws -> String {
        do {
            return try JWT.sign(claims: claims(at: now), header: ["typ": "JWT"], with: .rs256(key))
        } catch {
            throw HumanTokenAPIError(.configuration, "the private key could not sign the assertion", field: "privateKey")
        }
    }
}
