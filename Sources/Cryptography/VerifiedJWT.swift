import Foundation
import JSONBytes

/// A JWT whose algorithm and signature have been verified.
public struct VerifiedJWT: Sendable, Hashable {
    /// The protected header (always contains `alg`).
    public let header: [String: JSONValue]
    /// The claims set as JSON values.
    public let claims: [String: JSONValue]
    /// The raw JSON bytes of the claims set, for ``decodeClaims(as:)``.
    public let payload: Data

    /// Decodes the claims into `type`; `Date` properties read NumericDate seconds since 1970.
    public func decodeClaims<T: Decodable>(as type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(type, from: payload)
        } catch {
            throw CryptoError(.invalidEncoding, "JWT claims do not match \(T.self): \(error)")
        }
    }

    /// The `iss` claim.
    public var issuer: String? { claims["iss"]?.stringValue }
    /// The `sub` claim.
    public var subject: String? { claims["sub"]?.stringValue }
    /// The `aud` claim, which may be a single string or an array of strings.
    public var audience: [String] {
        switch claims["aud"] {
        case .string(let value)?: [value]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
    }
    /// The `exp` claim.
    public var expiresAt: Date? { date("exp") }
    /// The `nbf` claim.
    public var notBefore: Date? { date("nbf") }
    /// The `iat` claim.
    public var issuedAt: Date? { date("iat") }

    /// Throws `token_expired` if `exp` ≤ `now - leeway`, or `token_not_yet_valid` if `nbf` > `now + leeway`.
    ///
    /// A present but non-numeric `exp` or `nbf` throws `invalid_encoding`.
    public func checkValidity(at now: Date, leeway: TimeInterval = 0) throws {
        for name in ["exp", "nbf"] where claims[name] != nil && date(name) == nil {
            throw CryptoError(.invalidEncoding, "JWT \(name) claim is not a number")
        }
        if let expiresAt, now.addingTimeInterval(-leeway) >= expiresAt {
            throw CryptoError(.tokenExpired, "JWT expired at \(Int64(expiresAt.timeIntervalSince1970))")
        }
        if let notBefore, now.addingTimeInterval(leeway) < notBefore {
            throw CryptoError(.tokenNotYetValid, "JWT not valid before \(Int64(notBefore.timeIntervalSince1970))")
        }
    }

    private func date(_ name: String) -> Date? {
        claims[name]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
    }
}
