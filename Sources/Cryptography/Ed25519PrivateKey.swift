import COpenSSL
import Foundation

/// An Ed25519 (RFC 8032) signing key.
public struct Ed25519PrivateKey: Sendable {
    /// Size of the raw private key (the seed) in bytes.
    public static let byteCount = 32

    let key: EVPKey
    /// The matching public key.
    public let publicKey: Ed25519PublicKey

    /// Creates a key from its 32-byte raw form (the RFC 8032 secret key).
    public init(rawRepresentation: some DataProtocol) throws {
        guard rawRepresentation.count == Self.byteCount else {
            throw CryptoError(.invalidKey, "Ed25519 private key must be \(Self.byteCount) bytes, got \(rawRepresentation.count)")
        }
        let pointer = Bytes.withNonNil(rawRepresentation) { bytes, count in
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, bytes, count)
        }
        guard let pointer else { throw CryptoError.openssl("could not create an Ed25519 key", code: .invalidKey) }
        try self.init(EVPKey(taking: pointer))
    }

    /// Parses an unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`) holding an Ed25519 key.
    public init(pem: String) throws {
        try self.init(EVPKey.decodePEM(pem, keyType: "ED25519", selection: .keyPair, labels: ["PRIVATE KEY"]))
    }

    init(_ key: EVPKey) throws {
        guard key.baseID == EVP_PKEY_ED25519 else { throw CryptoError(.invalidKey, "not an Ed25519 key") }
        self.key = key
        self.publicKey = try Ed25519PublicKey(rawRepresentation: key.rawBytes(public: true))
    }

    /// Generates a new key from ``SecureRandom``.
    public static func generate() -> Ed25519PrivateKey {
        do {
            return try Ed25519PrivateKey(rawRepresentation: SecureRandom.bytes(byteCount))
        } catch {
            // Any 32 bytes form a valid Ed25519 seed, so only allocation failure lands here.
            preconditionFailure("Ed25519 key generation failed: \(error)")
        }
    }

    /// The 32-byte raw private key (seed).
    public var rawRepresentation: Data { key.rawBytes(public: false) }

    /// The key as unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`).
    public var pemPKCS8: String {
        get throws { try key.pem(.keyPair, structure: "PrivateKeyInfo") }
    }

    /// Returns the 64-byte Ed25519 signature of `data` (deterministic).
    public func signature(for data: some DataProtocol) throws -> Data {
        try key.sign(data, digest: nil)
    }
}

extension EVPKey {
    /// The raw public or private key bytes of an Ed25519 key.
    func rawBytes(public: Bool) -> Data {
        let get = `public` ? EVP_PKEY_get_raw_public_key : EVP_PKEY_get_raw_private_key
        var bytes = [UInt8](repeating: 0, count: 64)
        var length = bytes.count
        let ok = get(pointer, &bytes, &length)
        // The key type was checked at init; reading its raw form cannot fail.
        precondition(ok == 1, "could not read a raw Ed25519 key")
        return Data(bytes.prefix(length))
    }
}
