import COpenSSL
import Foundation

/// Owns one `EVP_PKEY*` and frees it on deinit.
///
/// Never mutated after init; OpenSSL 3 allows concurrent sign and verify with one key,
/// so sharing across threads is safe.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Signing and verifying contexts set up once, copied per signature.
    private let signing = PreparedContext(.sign)
    private let verifying = PreparedContext(.verify)

    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }

    /// The key's base type, e.g. `EVP_PKEY_RSA` or `EVP_PKEY_ED25519`.
    var baseID: Int32 { EVP_PKEY_get_base_id(pointer) }

    /// The key size in bits (the modulus size for RSA).
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// Parts of a key that a PEM encoder writes.
    enum Selection {
        case keyPair, publicKey

        var rawValue: Int32 { self == .keyPair ? shim_EVP_PKEY_KEYPAIR() : shim_EVP_PKEY_PUBLIC_KEY() }
    }

    /// Decodes an unencrypted PEM key of `keyType` ("RSA", "ED25519") whose label is one of `labels`.
    static func decodePEM(_ pem: String, keyType: String, selection: Selection, labels: Set<String>) throws -> EVPKey {
        guard let label = PEM.label(of: pem) else {
            throw CryptoError(.invalidEncoding, "input is not PEM (no BEGIN line)")
        }
        guard labels.contains(label) else {
            throw CryptoError(.invalidKey, "unsupported PEM type \"\(label)\"; expected one of \(labels.sorted())")
        }
        // The decoder context keeps these C string pointers, so they must outlive it.
        let key: OpaquePointer? = "PEM".withCString { inputType in
            keyType.withCString { keyTypeName in
                var key: OpaquePointer?
                guard
                    let context = OSSL_DECODER_CTX_new_for_pkey(
                        &key, inputType, nil, keyTypeName, selection.rawValue, nil, nil)
                else { return nil }
                defer { OSSL_DECODER_CTX_free(context) }
                let bytes = Array(pem.utf8)
                let decoded = bytes.withUnsafeBufferPointer { buffer -> Int32 in
                    var data = buffer.baseAddress
                    var length = buffer.count
                    return OSSL_DECODER_from_data(context, &data, &length)
                }
                guard decoded == 1 else {
                    EVP_PKEY_free(key)
                    return nil
                }
                return key
            }
        }
        guard let key else {
            throw CryptoError.openssl("could not decode \(label) as a \(keyType) key", code: .invalidKey)
        }
        ERR_clear_error()
        return EVPKey(taking: key)
    }

    /// Generates a key of `keyType`; `configure` sets parameters on the keygen context.
    static func generate(keyType: String, configure: (OpaquePointer) -> Int32 = { _ in 1 }) throws -> EVPKey {
        // The keygen context may keep the key type name pointer, so it must outlive the context.
        let key: OpaquePointer? = keyType.withCString { keyTypeName in
            guard let context = EVP_PKEY_CTX_new_from_name(nil, keyTypeName, nil) else { return nil }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, configure(context) > 0,
                EVP_PKEY_generate(context, &key) == 1
            else { return nil }
            return key
        }
        guard let key else { throw CryptoError.openssl("could not generate a \(keyType) key") }
        return EVPKey(taking: key)
    }

    /// Encodes the selected parts as PEM in `structure` ("PrivateKeyInfo", "SubjectPublicKeyInfo", "type-specific").
    func pem(_ selection: Selection, structure: String) throws -> String {
        // The encoder context keeps these C string pointers, so they must outlive it.
        let text: String? = "PEM".withCString { outputType in
            structure.withCString { structureName in
                guard
                    let context = OSSL_ENCODER_CTX_new_for_pkey(
                        pointer, selection.rawValue, outputType, structureName, nil)
                else { return nil }
                defer { OSSL_ENCODER_CTX_free(context) }
                guard let bio = BIO_new(BIO_s_mem()) else { return nil }
                defer { BIO_free(bio) }
                guard OSSL_ENCODER_to_bio(context, bio) == 1 else { return nil }
                var start: UnsafeMutablePointer<CChar>?
                let length = shim_BIO_get_mem_data(bio, &start)
                guard let start, length > 0 else { return nil }
                return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
            }
        }
        guard let text else { throw CryptoError.openssl("could not encode the key as \(structure) PEM") }
        return text
    }

    /// Signs `data` with `EVP_DigestSign`; `digest` is nil for Ed25519.
    func sign(_ data: some DataProtocol, digest: OpaquePointer?) throws -> Data {
        guard let context = signing.context(key: pointer, digest: digest) else {
            throw CryptoError.openssl("could not initialise signing")
        }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(pointer)))
        var length = signature.count
        let ok = Bytes.withNonNil(data) { bytes, count in
            EVP_DigestSign(context, &signature, &length, bytes, count)
        }
        guard ok == 1 else { throw CryptoError.openssl("signing failed") }
        return Data(signature.prefix(length))
    }

    /// Whether `signature` is valid for `data` under this key; `digest` is nil for Ed25519.
    func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol, digest: OpaquePointer?) -> Bool {
        guard let context = verifying.context(key: pointer, digest: digest) else {
            ERR_clear_error()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        let ok = Bytes.withNonNil(signature) { sig, sigCount in
            Bytes.withNonNil(data) { bytes, count in
                EVP_DigestVerify(context, sig, sigCount, bytes, count)
            }
        }
        // A failed verification leaves reasons on the queue; they must not surface later.
        ERR_clear_error()
        return ok == 1
    }

    /// Whether both keys have the same public components.
    func hasSamePublicKey(as other: EVPKey) -> Bool {
        let result = EVP_PKEY_eq(pointer, other.pointer)
        ERR_clear_error()
        return result == 1
    }
}

/// PEM framing helpers.
enum PEM {
    /// The label of the first `-----BEGIN <label>-----` line, or nil if there is none.
    static func label(of pem: String) -> String? {
        guard let begin = pem.range(of: "-----BEGIN ") else { return nil }
        guard let end = pem.range(of: "-----", range: begin.upperBound..<pem.endIndex) else { return nil }
        let label = pem[begin.upperBound..<end.lowerBound]
        guard !label.contains("\n") else { return nil }
        return String(label)
    }
}
