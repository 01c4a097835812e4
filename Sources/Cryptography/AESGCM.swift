import COpenSSL
import Foundation

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) with 96-bit nonces and 128-bit tags.
public enum AESGCM {
    /// Key size in bytes (AES-256).
    public static let keyByteCount = 32
    /// Nonce size in bytes.
    public static let nonceByteCount = 12
    /// Authentication tag size in bytes.
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, also authenticating (not encrypting) `aad`.
    ///
    /// Leave `nonce` nil to draw a random one; never reuse a nonce with the same key.
    public static func seal(
        _ plaintext: some DataProtocol,
        key: some DataProtocol,
        nonce: Data? = nil,
        authenticating aad: some DataProtocol = Data()
    ) throws -> SealedBox {
        let nonce = nonce ?? SecureRandom.bytes(nonceByteCount)
        try validate(key: key, nonce: nonce, lengths: plaintext.count, aad.count)
        let context = try CipherContext()
        guard try context.initialise(encrypt: true, key: key, nonce: nonce) == 1 else {
            throw CryptoError.openssl("AES-GCM encryption setup failed")
        }
        try context.authenticate(aad)
        var ciphertext = try context.update(plaintext)
        var tail = [UInt8](repeating: 0, count: 16)
        var tailLength: Int32 = 0
        guard EVP_EncryptFinal_ex(context.pointer, &tail, &tailLength) == 1 else {
            throw CryptoError.openssl("AES-GCM encryption failed")
        }
        ciphertext.append(contentsOf: tail.prefix(Int(tailLength)))
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        guard EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), &tag) == 1 else {
            throw CryptoError.openssl("could not read the AES-GCM tag")
        }
        return try SealedBox(nonce: nonce, ciphertext: Data(ciphertext), tag: Data(tag))
    }

    /// Verifies and decrypts `box`; throws `decryption_failed` if the key, AAD or any byte is wrong.
    public static func open(
        _ box: SealedBox,
        key: some DataProtocol,
        authenticating aad: some DataProtocol = Data()
    ) throws -> Data {
        try validate(key: key, nonce: box.nonce, lengths: box.ciphertext.count, aad.count)
        let context = try CipherContext()
        guard try context.initialise(encrypt: false, key: key, nonce: box.nonce) == 1 else {
            throw CryptoError.openssl("AES-GCM decryption setup failed")
        }
        try context.authenticate(aad)
        var plaintext = try context.update(box.ciphertext)
        var tag = Array(box.tag)
        guard EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1 else {
            throw CryptoError.openssl("could not set the AES-GCM tag")
        }
        var tail = [UInt8](repeating: 0, count: 16)
        var tailLength: Int32 = 0
        guard EVP_DecryptFinal_ex(context.pointer, &tail, &tailLength) > 0 else {
            // Unauthenticated plaintext must never escape.
            plaintext.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            ERR_clear_error()
            throw CryptoError(.decryptionFailed, "AES-GCM authentication failed")
        }
        plaintext.append(contentsOf: tail.prefix(Int(tailLength)))
        return Data(plaintext)
    }

    private static func validate(key: some DataProtocol, nonce: Data, lengths: Int...) throws {
        guard key.count == keyByteCount else {
            throw CryptoError(.invalidKey, "AES-256-GCM key must be \(keyByteCount) bytes, got \(key.count)")
        }
        guard nonce.count == nonceByteCount else {
            throw CryptoError(.invalidArgument, "AES-GCM nonce must be \(nonceByteCount) bytes, got \(nonce.count)")
        }
        guard lengths.allSatisfy({ $0 < Int(Int32.max) }) else {
            throw CryptoError(.invalidArgument, "AES-GCM input too large")
        }
    }
}

/// Owns one `EVP_CIPHER_CTX*` set up for AES-256-GCM.
private final class CipherContext {
    let pointer: OpaquePointer

    init() throws {
        guard let pointer = EVP_CIPHER_CTX_new() else { throw CryptoError.openssl("could not allocate a cipher context") }
        self.pointer = pointer
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }

    func initialise(encrypt: Bool, key: some DataProtocol, nonce: Data) throws -> Int32 {
        Bytes.withNonNil(key) { keyBytes, _ in
            Bytes.withNonNil(nonce) { nonceBytes, _ in
                encrypt
                    ? EVP_EncryptInit_ex2(pointer, FetchedAlgorithm.aes256GCM.pointer, keyBytes, nonceBytes, nil)
                    : EVP_DecryptInit_ex2(pointer, FetchedAlgorithm.aes256GCM.pointer, keyBytes, nonceBytes, nil)
            }
        }
    }

    /// Feeds additional authenticated data (a null output buffer marks it as AAD).
    func authenticate(_ aad: some DataProtocol) throws {
        guard !aad.isEmpty else { return }
        var ignored: Int32 = 0
        let ok = Bytes.withNonNil(aad) { bytes, count in
            EVP_CipherUpdate(pointer, nil, &ignored, bytes, Int32(count))
        }
        guard ok == 1 else { throw CryptoError.openssl("AES-GCM could not process AAD") }
    }

    /// Encrypts or decrypts `input`; empty input is skipped, since a null buffer would mean AAD.
    func update(_ input: some DataProtocol) throws -> [UInt8] {
        guard !input.isEmpty else { return [] }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var length: Int32 = 0
        let ok = Bytes.withNonNil(input) { bytes, count in
            EVP_CipherUpdate(pointer, &output, &length, bytes, Int32(count))
        }
        guard ok == 1 else { throw CryptoError.openssl("AES-GCM update failed") }
        return Array(output.prefix(Int(length)))
    }
}
