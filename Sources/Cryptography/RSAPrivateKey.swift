import COpenSSL
import Foundation

/// An RSA private key for RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
///
/// Keys below 2048 bits are rejected, as RFC 7518 §3.3 requires for RS256.
public struct RSAPrivateKey: Sendable {
    /// The smallest modulus accepted, in bits.
    public static let minimumBits = 2048

    let key: EVPKey
    /// The matching public key.
    public let publicKey: RSAPublicKey

    /// Parses an unencrypted PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`) PEM.
    public init(pem: String) throws {
        let key = try EVPKey.decodePEM(
            pem, keyType: "RSA", selection: .keyPair, labels: ["PRIVATE KEY", "RSA PRIVATE KEY"])
        try self.init(key)
    }

    init(_ key: EVPKey) throws {
        guard key.baseID == EVP_PKEY_RSA else { throw CryptoError(.invalidKey, "not an RSA key") }
        guard key.bits >= Self.minimumBits else {
            throw CryptoError(.invalidKey, "RSA key has \(key.bits) bits; at least \(Self.minimumBits) required")
        }
        self.key = key
        self.publicKey = try RSAPublicKey(pem: try key.pem(.publicKey, structure: "SubjectPublicKeyInfo"))
    }

    /// Generates a new key with a public exponent of 65537.
    public static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
        guard (minimumBits...16384).contains(bits) else {
            throw CryptoError(.invalidArgument, "RSA key size must be between \(minimumBits) and 16384 bits")
        }
        let key = try EVPKey.generate(keyType: "RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) }
        return try RSAPrivateKey(key)
    }

    /// The modulus size in bits.
    public var bits: Int { key.bits }

    /// The key as unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`).
    public var pemPKCS8: String {
        get throws { try key.pem(.keyPair, structure: "PrivateKeyInfo") }
    }

    /// The key as unencrypted PKCS#1 PEM (`BEGIN RSA PRIVATE KEY`).
    public var pemPKCS1: String {
        get throws { try key.pem(.keyPair, structure: "type-specific") }
    }

    /// Signs `data` with RSASSA-PKCS1-v1_5 over SHA-256 (JWS `RS256`).
    public func signature(for data: some DataProtocol) throws -> Data {
        try key.sign(data, digest: FetchedAlgorithm.sha256.pointer)
    }

    /// Signs `data` with RSASSA-PKCS1-v1_5 over SHA-256; same as ``signature(for:)``.
    public func sign(_ data: some DataProtocol) throws -> Data {
        try signature(for: data)
    }
}
