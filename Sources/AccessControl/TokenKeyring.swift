import Cryptography
import Foundation

/// Ed25519 token-signing keys by key id: the current key signs (its id goes into the JWT header
/// as `kid`), previous keys only verify, so tokens they signed keep working until they expire.
///
/// A key id is a short hash of the public key (``keyID(of:)``), never configured by hand. A token
/// naming an unknown `kid` is refused; a token without `kid` (issued before key ids existed) is
/// checked against the current key only.
public struct TokenKeyring: Sendable {
    /// Id of the key that signs new tokens.
    public let currentKeyID: String
    let signingKey: Ed25519PrivateKey
    let verificationKeys: [String: Ed25519PublicKey]

    /// `previous` keys verify tokens they signed; repeating the current key is harmless.
    public init(current: Ed25519PrivateKey, previous: [Ed25519PublicKey] = []) {
        var keys: [String: Ed25519PublicKey] = [:]
        for key in previous { keys[Self.keyID(of: key)] = key }
        let currentID = Self.keyID(of: current.publicKey)
        keys[currentID] = current.publicKey
        self.currentKeyID = currentID
        self.signingKey = current
        self.verificationKeys = keys
    }

    /// The public key of the current signing key.
    public var publicKey: Ed25519PublicKey { signingKey.publicKey }

    /// Every key id that verifies, the current one included.
    public var keyIDs: Set<String> { Set(verificationKeys.keys) }

    /// `base64url(SHA-256("journeys.token-key.v1" || public key))`, first 12 characters.
    public static func keyID(of key: Ed25519PublicKey) -> String {
        String(Base64URL.encode(SHA256.hash(Data("journeys.token-key.v1".utf8) + key.rawRepresentation)).prefix(12))
    }

    /// Reads the current key from `current` and previous ones from `previous` in `variables`.
    ///
    /// Each key is 32 raw Ed25519 bytes in base64url; `previous` is comma-separated. Errors
    /// (`invalid_configuration`) name the variable, and the entry for `previous`, never a value.
    public static func fromEnvironment(_ variables: [String: String], current: String, previous: String) throws -> TokenKeyring {
        guard let text = variables[current]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw AccessError(
                .invalidConfiguration,
                "\(current) is not set: set it to 32 random bytes in base64url (openssl rand 32 | basenc --base64url)")
        }
        guard let key = Self.privateKey(text) else {
            throw AccessError(.invalidConfiguration, "\(current) must be \(Ed25519PrivateKey.byteCount) bytes in base64url")
        }
        var older: [Ed25519PublicKey] = []
        let entries = (variables[previous] ?? "").split(separator: ",", omittingEmptySubsequences: false)
        for (index, entry) in entries.enumerated() {
            let entry = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            if entry.isEmpty { continue }
            guard let key = Self.privateKey(entry) else {
                throw AccessError(
                    .invalidConfiguration,
                    "\(previous) entry \(index + 1) must be \(Ed25519PrivateKey.byteCount) bytes in base64url")
            }
            older.append(key.publicKey)
        }
        return TokenKeyring(current: key, previous: older)
    }

    private static func privateKey(_ text: String) -> Ed25519PrivateKey? {
        guard let raw = Base64URL.decode(text), raw.count == Ed25519PrivateKey.byteCount else { return nil }
        return try? Ed25519PrivateKey(rawRepresentation: raw)
    }

    /// A compact JWT of `claims`, signed by the current key, with its `kid`.
    func sign(claims: some Encodable) throws -> String {
        try JWT.sign(claims: claims, header: ["kid": .string(currentKeyID)], with: .edDSA(signingKey))
    }

    /// Verifies `token`'s signature under the key its `kid` names; `invalid_token` otherwise.
    func verify(_ token: String, what: String) throws -> VerifiedJWT {
        let key: Ed25519PublicKey
        do {
            switch try JWT.unverifiedHeader(of: token)["kid"] {
            case nil:
                key = signingKey.publicKey
            case .string(let kid)?:
                guard let known = verificationKeys[kid] else {
                    throw AccessError(
                        .invalidToken, "the \(what) is signed by an unknown key (kid \(String(kid.prefix(16)).debugDescription))")
                }
                key = known
            default:
                throw AccessError(.invalidToken, "the \(what)'s kid is not a string")
            }
            return try JWT.verify(token, with: .edDSA(key))
        } catch let error as CryptoError {
            throw AccessError(.invalidToken, Self.reason(error, what: what))
        }
    }

    private static func reason(_ error: CryptoError, what: String) -> String {
        switch error.code {
        case .invalidSignature: "the \(what)'s signature does not verify"
        case .algorithmMismatch: "the \(what) is not signed with EdDSA"
        default: "the \(what) is malformed"
        }
    }
}
