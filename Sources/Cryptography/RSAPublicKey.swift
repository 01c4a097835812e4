import COpenSSL
import Foundation

/// An RSA public key that verifies RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures.
public struct RSAPublicKey: Sendable, Equatable {
    let key: EVPKey

    /// Parses a SubjectPublicKeyInfo (`BEGIN PUBLIC KEY`) or PKCS#1 (`BEGIN RSA PUBLIC KEY`) PEM.
    ///
    /// Keys below ``RSAPrivateKey/minimumBits`` are rejected.
    public init(pem: String) throws {
        let key = try EVPKey.decodePEM(
            pem, keyType: "RSA", selection: .publicKey, labels: ["PUBLIC KEY", "RSA PUBLIC KEY"])
        guard key.baseID == EVP_PKEY_RSA else { throw CryptoError(.invalidKey, "not an RSA key") }
        guard key.bits >= RSAPrivateKey.minimumBits else {
            throw CryptoError(.invalidKey, "RSA key has \(key.bits) bits; at least \(RSAPrivateKey.minimumBits) required")
        }
        self.key = key
    }

    /// The modulus size in bits.
    public var bits: Int { key.bits }

    /// The key as SubjectPublicKeyInfo PEM (`BEGIN PUBLIC KEY`).
    public var pem: String {
        get throws { try key.pem(.publicKey, structure: "SubjectPublicKeyInfo") }
    }

    /// The key as PKCS#1 PEM (`BEGIN RSA PUBLIC KEY`).
    public var pemPKCS1: String {
        get throws { try key.pem(.publicKey, structure: "type-specific") }
    }

    /// Whether `signature` is a valid RS256 signature of `data`.
    public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
        key.isValidSignature(signature, for: data, digest: FetchedAlgorithm.sha256.pointer)
    }

    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.key.hasSamePublicKey(as: rhs.key)
    }
}
