import Cryptography
import Foundation

/// Signs and checks the process tokens handed out by Create Process, with the emulator's Ed25519 key.
///
/// Both kinds are EdDSA JWTs carrying the process id and environment; only `webAppToken` opens a
/// capture, so a `token` passed to the SDK is refused with 73304 just like a forged one.
struct CaptureTokenIssuer: Sendable {
    enum Kind: String, Codable, Sendable {
        case webAppToken
        case token
    }

    struct Claims: Codable, Sendable {
        var iss: String
        var kind: Kind
        var pid: String
        var env: UnicoEmulator.Environment
        var iat: Int64
        var exp: Int64
        var jti: String
    }

    enum Failure: Error, Equatable {
        /// Not a token this emulator signed, or not a capture token at all.
        case invalid
        case wrongKind
        case expired
    }

    static let issuer = "unico-emulator"
    private let key: Ed25519PrivateKey

    init(key: Ed25519PrivateKey) {
        self.key = key
    }

    func issue(kind: Kind, processID: String, environment: UnicoEmulator.Environment, now: Date, expiresAt: Date) throws -> String
    {
        let claims = Claims(
            iss: Self.issuer, kind: kind, pid: processID, env: environment,
            iat: Int64(now.timeIntervalSince1970.rounded(.down)),
            exp: Int64(expiresAt.timeIntervalSince1970.rounded(.down)),
            jti: Base64URL.encode(SecureRandom.bytes(12)))
        return try JWT.sign(claims: claims, with: .edDSA(key))
    }

    /// Checks signature, issuer, kind and expiry at `now`, in that order.
    func verifyWebAppToken(_ token: String, now: Date) throws(Failure) -> Claims {
        let claims: Claims
        do {
            claims = try JWT.verify(token, with: .edDSA(key.publicKey)).decodeClaims(as: Claims.self)
        } catch {
            throw .invalid
        }
        guard claims.iss == Self.issuer else { throw .invalid }
        guard claims.kind == .webAppToken else { throw .wrongKind }
        guard Double(claims.exp) > now.timeIntervalSince1970 else { throw .expired }
        return claims
    }
}
