@testable import Cryptography
import Foundation
import Testing

/// The primitives built on fetched algorithms and prepared contexts answer what OpenSSL's
/// fetch-per-call paths answer, byte for byte, including when one key is used many times at once.
@Suite("Fetched algorithms and prepared contexts")
struct FetchedPrimitiveTests {
    @Test("HMAC-SHA256 equals EVP_Q_mac for keys of 0 to 140 bytes, around the 64-byte block")
    func hmacEqualsOpenSSL() {
        var generator = SystemRandomNumberGenerator()
        for keyLength in 0...140 {
            let key = Data((0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let message = Data((0..<(keyLength * 7 % 300)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(
                HMACSHA256.authenticate(message, key: key) == HMACSHA256.referenceMAC(message, key: key),
                "key length \(keyLength)")
        }
    }

    @Test("HMAC-SHA256 of sliced and non-contiguous input equals that of its bytes")
    func hmacSlices() {
        let bytes = Data((0..<200).map { UInt8($0) })
        let key = bytes[3..<70]
        var fragmented = DispatchData.empty
        for chunk in stride(from: 0, to: bytes.count, by: 37) {
            let piece = Array(bytes[chunk..<min(chunk + 37, bytes.count)])
            piece.withUnsafeBytes { fragmented.append($0) }
        }
        let expected = HMACSHA256.referenceMAC(bytes, key: Data(key))
        #expect(HMACSHA256.authenticate(fragmented, key: key) == expected)
        #expect(HMACSHA256.authenticate(bytes[...], key: Array(key)) == expected)
    }

    @Test("one Ed25519 key signs and verifies repeatedly and concurrently with the RFC 8032 answers")
    func ed25519Concurrent() async throws {
        let vector = Ed25519Tests.vectors[2]
        let key = try Ed25519PrivateKey(rawRepresentation: try #require(Hex.decode(vector.secretKey)))
        let message = try #require(Hex.decode(vector.message))
        let expected = try #require(Hex.decode(vector.signature))
        var flipped = expected
        flipped[5] ^= 0x10
        let badSignature = flipped
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let signed = (try? key.signature(for: message)) == expected
                    let verifies = key.publicKey.isValidSignature(expected, for: message)
                    let refuses = !key.publicKey.isValidSignature(
                        index.isMultiple(of: 2) ? badSignature : expected,
                        for: index.isMultiple(of: 2) ? message : message + Data([1]))
                    return signed && verifies && refuses
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
        #expect(try key.signature(for: message) == expected)
    }

    @Test("SHA-256 and AES-256-GCM through fetched algorithms keep their known answers")
    func fetchedKnownAnswers() throws {
        #expect(SHA256.hexDigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // GCM spec test case 13: zero key, zero nonce, empty plaintext.
        let box = try AESGCM.seal(Data(), key: Data(count: 32), nonce: Data(count: 12))
        #expect(Hex.encode(box.tag) == "530f8afbc74536b9a963b4f1c4cb738b")
        #expect(try AESGCM.open(box, key: Data(count: 32)).isEmpty)
    }
}
