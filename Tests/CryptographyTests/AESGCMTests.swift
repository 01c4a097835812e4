import Cryptography
import Foundation
import Testing

@Suite("AES-256-GCM")
struct AESGCMTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name, key, iv, plaintext, aad, ciphertext, tag: String
        var testDescription: String { name }
    }

    static let zeroKey = String(repeating: "00", count: 32)
    static let feffeKey = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
    static let longPlaintext =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let longCiphertext =
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
        + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"

    /// McGrew & Viega, "The Galois/Counter Mode of Operation", AES-256 test cases 13–16.
    static let vectors = [
        Vector(
            name: "Test Case 13", key: zeroKey, iv: String(repeating: "00", count: 12),
            plaintext: "", aad: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        Vector(
            name: "Test Case 14", key: zeroKey, iv: String(repeating: "00", count: 12),
            plaintext: String(repeating: "00", count: 16), aad: "",
            ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        Vector(
            name: "Test Case 15", key: feffeKey, iv: "cafebabefacedbaddecaf888",
            plaintext: longPlaintext, aad: "", ciphertext: longCiphertext,
            tag: "b094dac5d93471bdec1a502270e3cc6c"),
        Vector(
            name: "Test Case 16 (with AAD)", key: feffeKey, iv: "cafebabefacedbaddecaf888",
            plaintext: String(longPlaintext.dropLast(8)), aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            ciphertext: String(longCiphertext.dropLast(8)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    @Test("GCM spec vectors", arguments: vectors)
    func gcmSpec(vector: Vector) throws {
        let key = try #require(Hex.decode(vector.key))
        let nonce = try #require(Hex.decode(vector.iv))
        let plaintext = try #require(Hex.decode(vector.plaintext))
        let aad = try #require(Hex.decode(vector.aad))
        let box = try AESGCM.seal(plaintext, key: key, nonce: nonce, authenticating: aad)
        #expect(Hex.encode(box.ciphertext) == vector.ciphertext)
        #expect(Hex.encode(box.tag) == vector.tag)
        #expect(box.nonce == nonce)
        #expect(box.combined == nonce + box.ciphertext + box.tag)
        #expect(try AESGCM.open(AESGCM.SealedBox(combined: box.combined), key: key, authenticating: aad) == plaintext)
    }

    static let key = SecureRandom.bytes(32)

    @Test("random nonces differ and round-trip")
    func randomNonce() throws {
        let message = Data("CPF 123.456.789-09".utf8)
        let a = try AESGCM.seal(message, key: Self.key)
        let b = try AESGCM.seal(message, key: Self.key)
        #expect(a.nonce.count == 12 && a.tag.count == 16 && a.ciphertext.count == message.count)
        #expect(a.nonce != b.nonce && a.ciphertext != b.ciphertext)
        #expect(try AESGCM.open(a, key: Self.key) == message)
        #expect(try AESGCM.open(b, key: Self.key) == message)
    }

    @Test("any change to ciphertext, tag, nonce, AAD or key fails with decryption_failed")
    func tamperDetection() throws {
        let aad = Data("journey:42".utf8)
        let box = try AESGCM.seal(Data("secret document".utf8), key: Self.key, authenticating: aad)
        let combined = box.combined
        for index in [0, 11, 12, combined.count - 17, combined.count - 16, combined.count - 1] {
            var tampered = combined
            tampered[index] ^= 0x80
            let error = try #require(throws: CryptoError.self) {
                try AESGCM.open(AESGCM.SealedBox(combined: tampered), key: Self.key, authenticating: aad)
            }
            #expect(error.code == .decryptionFailed && error.code.rawValue == "decryption_failed")
        }
        #expect(throws: CryptoError(.decryptionFailed, "AES-GCM authentication failed")) {
            try AESGCM.open(box, key: Self.key, authenticating: Data("journey:43".utf8))
        }
        #expect(throws: CryptoError(.decryptionFailed, "AES-GCM authentication failed")) {
            try AESGCM.open(box, key: Self.key)
        }
        #expect(throws: CryptoError(.decryptionFailed, "AES-GCM authentication failed")) {
            try AESGCM.open(box, key: SecureRandom.bytes(32), authenticating: aad)
        }
        let truncated = try AESGCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext.dropLast(), tag: box.tag)
        #expect(throws: CryptoError.self) { try AESGCM.open(truncated, key: Self.key, authenticating: aad) }
    }

    @Test("rejects bad key, nonce, tag and combined sizes")
    func sizeChecks() throws {
        let invalidKey = try #require(throws: CryptoError.self) { try AESGCM.seal(Data(), key: Data(count: 16)) }
        #expect(invalidKey.code == .invalidKey)
        let badNonce = try #require(throws: CryptoError.self) {
            try AESGCM.seal(Data(), key: Self.key, nonce: Data(count: 16))
        }
        #expect(badNonce.code == .invalidArgument)
        #expect(throws: CryptoError.self) {
            try AESGCM.SealedBox(nonce: Data(count: 12), ciphertext: Data(), tag: Data(count: 12))
        }
        let short = try #require(throws: CryptoError.self) { try AESGCM.SealedBox(combined: Data(count: 27)) }
        #expect(short.code == .invalidEncoding)
        // The smallest valid box: empty plaintext.
        let empty = try AESGCM.seal(Data(), key: Self.key)
        #expect(empty.combined.count == 28)
        #expect(try AESGCM.open(AESGCM.SealedBox(combined: empty.combined), key: Self.key).isEmpty)
    }

    @Test("large and sliced inputs round-trip")
    func largeInput() throws {
        let big = SecureRandom.bytes(1 << 20)
        let box = try AESGCM.seal(big.dropFirst(3), key: Self.key[...], authenticating: [UInt8](repeating: 1, count: 100))
        #expect(try AESGCM.open(box, key: Self.key, authenticating: [UInt8](repeating: 1, count: 100)) == big.dropFirst(3))
    }
}
