import Cryptography
import Foundation
import Synchronization

/// Signs the OAuth2 JWT-bearer assertions Unico's token endpoint accepts.
///
/// Header `{"alg":"RS256","typ":"JWT"}` and exactly five claims: `iss`, `aud`, `scope` (`"*"`),
/// `iat` and `exp`. Unico refuses an assertion it has seen before (`1.2.7`), RS256 is
/// deterministic, and no `jti` may be added, so only `exp` can tell two assertions of one second
/// apart. Each second's first lifetime is drawn at random from ``lifetimeRange`` (two processes
/// of one service account rarely sign the same claims), and later ones in that second count
/// down from it (this process never signs the same claims twice). A replay refusal that still
/// happens is answered by signing again (``AccessTokenProvider``).
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
    /// The lifetimes a second's first assertion draws from: 2,401 values.
    static let lifetimeRange: ClosedRange<Int64> = 1200...maximumLifetime
    /// The shortest lifetime the count-down within one second goes to.
    static let minimumLifetime: Int64 = 60

    private let issuer: String
    private let audience: String
    private let key: RSAPrivateKey
    private let draw: @Sendable (ClosedRange<Int64>) -> Int64
    private let lastIssued = Mutex<(iat: Int64, lifetime: Int64)>((0, 0))

    /// - Parameter draw: picks a second's first lifetime from the range. Default: the system generator.
    init(
        issuer: String, audience: String, key: RSAPrivateKey,
        draw: @escaping @Sendable (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }
    ) {
        self.issuer = issuer
        self.audience = audience
        self.key = key
        self.draw = draw
    }

    /// The claims for an assertion issued at `now`, never equal to one this signer made before.
    func claims(at now: Date) -> Claims {
        let iat = Int64(now.timeIntervalSince1970.rounded(.down))
        let drawn = draw(Self.lifetimeRange)
        let lifetime = lastIssued.withLock { last -> Int64 in
            let lifetime: Int64
            if last.iat == iat {
                // Count down, wrapping to the top once the floor is reached (3,540 per second).
                lifetime = last.lifetime > Self.minimumLifetime ? last.lifetime - 1 : Self.maximumLifetime
            } else {
                lifetime = min(max(drawn, Self.minimumLifetime), Self.maximumLifetime)
            }
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
