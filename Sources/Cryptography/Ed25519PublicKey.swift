import COpenSSL
import Foundation

/// An Ed25519 (RFC 8032) verification key.
public struct Ed25519PublicKey: Sendable, Hashable {
    /// Size of the raw public key in bytes.
    public static let byteCount = 32

    let key: EVPKey
    /// The 32-byte raw public key.
    public let rawRepresentation: Data

    /// Creates a key from its 32-byte raw (encoded point) form.
    public init(rawRepresentation: some DataProtocol) throws {
        guard rawRepresentation.count == Self.byteCount else {
            throw CryptoError(.invalidKey, "Ed25519 public key must be \(Self.byteCount) bytes, got \(rawRepresentation.count)")
        }
        let pointer = Bytes.withNonNil(rawRepresentation) { bytes, count in
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes, count)
        }
        guard let pointer else { throw CryptoError.openssl("could not create an Ed25519 public key", code: .invalidKey) }
        key = EVPKey(taking: pointer)
        self.rawRepresentation = Data(rawRepresentation)
    }

    /// Parses a SubjectPublicKeyInfo PEM (`BEGIN PUBLIC KEY`) holding an Ed25519 key.
    public init(pem: String) throws {
        let key = try EVPKey.decodePEM(pem, keyType: "ED25519", selection: .publicKey, labels: ["PUBLIC KEY"])
        guard key.baseID == EVP_PKEY_ED25519 else { throw CryptoError(.invalidKey, "not an Ed25519 key") }
        self.key = key
        self.rawRepresentation = key.rawBytes(public: true)
    }

    /// The key as SubjectPublicKeyInfo PEM (`BEGIN PUBLIC KEY`).
    public var pem: String {
        get throws { try key.pem(.publicKey, structure: "SubjectPublicKeyInfo") }
    }

    /// Whether `signature` is a valid Ed25519 signature of `data`.
    public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
        guard signature.count == 64 else { return false }
        return key.isValidSignature(signature, for: data, digest: nil)
    }

    public static func == (lhs: Ed25519PublicKey, rhs: Ed25519PublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }
}
