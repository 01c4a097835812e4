import Foundation

extension JWT {
    /// The JWS algorithms this module signs and verifies (RFC 7518 §3.1, RFC 8037).
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        /// RSASSA-PKCS1-v1_5 using SHA-256.
        case rs256 = "RS256"
        /// Ed25519 signatures.
        case edDSA = "EdDSA"
        /// HMAC using SHA-256.
        case hs256 = "HS256"
    }

    /// The smallest HS256 secret accepted, in bytes (RFC 7518 §3.2: at least the hash size).
    public static let minimumHMACKeyByteCount = 32

    /// A key that signs tokens; its case fixes the `alg` written into the header.
    public enum SigningKey: Sendable {
        case rs256(RSAPrivateKey)
        case edDSA(Ed25519PrivateKey)
        /// A shared secret of at least ``JWT/minimumHMACKeyByteCount`` bytes.
        case hs256(Data)

        /// The algorithm this key signs with.
        public var algorithm: Algorithm {
            switch self {
            case .rs256: .rs256
            case .edDSA: .edDSA
            case .hs256: .hs256
            }
        }

        func signature(for input: Data) throws -> Data {
            switch self {
            case .rs256(let key): return try key.signature(for: input)
            case .edDSA(let key): return try key.signature(for: input)
            case .hs256(let secret):
                try JWT.checkHMACSecret(secret)
                return HMACSHA256.authenticate(input, key: secret)
            }
        }
    }

    /// A key that verifies tokens; a token verifies only if its `alg` is this key's algorithm.
    public enum VerificationKey: Sendable {
        case rs256(RSAPublicKey)
        case edDSA(Ed25519PublicKey)
        /// A shared secret of at least ``JWT/minimumHMACKeyByteCount`` bytes.
        case hs256(Data)

        /// The only algorithm this key accepts.
        public var algorithm: Algorithm {
            switch self {
            case .rs256: .rs256
            case .edDSA: .edDSA
            case .hs256: .hs256
            }
        }

        func isValidSignature(_ signature: Data, for input: Data) throws -> Bool {
            switch self {
            case .rs256(let key): return key.isValidSignature(signature, for: input)
            case .edDSA(let key): return key.isValidSignature(signature, for: input)
            case .hs256(let secret):
                try JWT.checkHMACSecret(secret)
                return HMACSHA256.isValid(signature, for: input, key: secret)
            }
        }
    }

    static func checkHMACSecret(_ secret: Data) throws {
        guard secret.count >= minimumHMACKeyByteCount else {
            throw CryptoError(.invalidKey, "HS256 secret must be at least \(minimumHMACKeyByteCount) bytes, got \(secret.count)")
        }
    }
}
