import Cryptography
import Foundation
import Testing

@Suite("HMAC-SHA256")
struct HMACSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: Data
        let data: Data
        let mac: String
        var testDescription: String { name }
    }

    static let longKey = Data(repeating: 0xAA, count: 131)

    /// RFC 4231 §4.2–4.8, test cases 1–4, 6 and 7 (case 5 truncates; see below).
    static let vectors: [Vector] = [
        Vector(
            name: "case 1", key: Data(repeating: 0x0B, count: 20), data: Data("Hi There".utf8),
            mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(
            name: "case 2", key: Data("Jefe".utf8), data: Data("what do ya want for nothing?".utf8),
            mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(
            name: "case 3", key: Data(repeating: 0xAA, count: 20), data: Data(repeating: 0xDD, count: 50),
            mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(
            name: "case 4", key: Data(1...25), data: Data(repeating: 0xCD, count: 50),
            mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(
            name: "case 6", key: longKey,
            data: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(
            name: "case 7", key: longKey,
            data: Data(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("RFC 4231 vectors", arguments: vectors)
    func rfc4231(vector: Vector) throws {
        let expected = try #require(Hex.decode(vector.mac))
        #expect(HMACSHA256.authenticate(vector.data, key: vector.key) == expected)
        #expect(HMACSHA256.isValid(expected, for: vector.data, key: vector.key))
    }

    @Test("RFC 4231 case 5: the first 128 bits match the truncated MAC")
    func truncation() {
        let mac = HMACSHA256.authenticate(Data("Test With Truncation".utf8), key: Data(repeating: 0x0C, count: 20))
        #expect(Hex.encode(mac.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
        // isValid never accepts a truncated MAC.
        #expect(
            !HMACSHA256.isValid(mac.prefix(16), for: Data("Test With Truncation".utf8), key: Data(repeating: 0x0C, count: 20)))
    }

    @Test("rejects a changed message, key, MAC bit or length")
    func rejectsTampering() {
        let key = Data("secret".utf8)
        let message = Data("payload".utf8)
        let mac = HMACSHA256.authenticate(message, key: key)
        #expect(HMACSHA256.isValid(mac, for: message, key: key))
        #expect(!HMACSHA256.isValid(mac, for: Data("payloaD".utf8), key: key))
        #expect(!HMACSHA256.isValid(mac, for: message, key: Data("secreT".utf8)))
        var flipped = mac
        flipped[31] ^= 0x01
        #expect(!HMACSHA256.isValid(flipped, for: message, key: key))
        #expect(!HMACSHA256.isValid(mac + Data([0]), for: message, key: key))
        #expect(!HMACSHA256.isValid(Data(), for: message, key: key))
    }

    @Test("empty key and empty message are allowed")
    func emptyInputs() {
        // Known value: HMAC-SHA256 with empty key over empty message.
        #expect(
            Hex.encode(HMACSHA256.authenticate(Data(), key: Data()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
