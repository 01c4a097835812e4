import Cryptography
import Foundation
import JSONBytes

/// Checks a JWT-bearer assertion the way Unico documents it, without touching shared state.
///
/// Order: decodable, issuer names a configured account (1.0.1), RS256 signature (1.2.5), exactly
/// the five claims (1.2.22, 1.1.1), claim types (1.2.21), scope `*` (1.2.14), audience (1.2.5),
/// `0 < exp - iat <= 3600` and `iat` not in the future beyond a minute (1.2.5), not expired (1.2.4).
/// One-time use (1.2.7) needs state and is checked by the caller.
struct AssertionValidator: Sendable {
    struct Accepted: Sendable {
        var account: UnicoEmulator.ServiceAccount
        var expiresAt: Date
    }

    static let allowedClaims: Set<String> = ["iss", "aud", "scope", "iat", "exp"]
    static let maximumLifetime: Double = 3600
    /// How far `iat` may lie ahead of the emulator's clock.
    static let issuedAtLeeway: Double = 60

    let accounts: [UnicoEmulator.ServiceAccount]
    let tokenHost: @Sendable (UnicoEmulator.Environment) -> String

    /// Validates `assertion` at `now`; `extraAudience`, when given, is accepted as `aud` in every environment.
    func validate(_ assertion: String, now: Date, extraAudience: String? = nil) throws(TokenEndpointError) -> Accepted {
        func expected(_ audience: String?, _ environment: UnicoEmulator.Environment) -> Bool {
            audience != nil && (audience == tokenHost(environment) || audience == extraAudience)
        }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            case .object(let unverified)? = JSONValue.parse(payload)
        else { throw .undecodable }
        guard case .string(let issuer)? = unverified["iss"] else { throw .undecodable }
        let candidates = accounts.filter { $0.issuer == issuer }
        guard !candidates.isEmpty else { throw .unknownTenant }
        let audience = unverified["aud"]?.stringValue
        let account = candidates.first { expected(audience, $0.environment) } ?? candidates[0]

        let claims: [String: JSONValue]
        do {
            claims = try JWT.verify(assertion, with: .rs256(account.publicKey)).claims
        } catch let error as CryptoError where error.code == .invalidEncoding {
            throw .undecodable
        } catch {
            throw .notValid
        }
        guard Set(claims.keys).isSubset(of: Self.allowedClaims) else { throw .extraClaims }
        guard let scope = claims["scope"] else { throw .missingScope }
        guard case .string(let scopeValue) = scope,
            case .string(let aud)? = claims["aud"],
            let iat = claims["iat"]?.doubleValue, let exp = claims["exp"]?.doubleValue
        else { throw .undecodable }
        guard scopeValue == "*" else { throw .scopeNotAllowed }
        guard expected(aud, account.environment) else { throw .notValid }
        let lifetime = exp - iat
        guard lifetime > 0, lifetime <= Self.maximumLifetime else { throw .notValid }
        let nowSeconds = now.timeIntervalSince1970
        guard iat <= nowSeconds + Self.issuedAtLeeway else { throw .notValid }
        guard exp > nowSeconds else { throw .expired }
        return Accepted(account: account, expiresAt: Date(timeIntervalSince1970: exp))
    }
}
