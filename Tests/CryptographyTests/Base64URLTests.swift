import Cryptography
import Foundation
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test(
        "RFC 4648 §10 vectors, unpadded",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"),
            ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ])
    func rfc4648(plain: String, encoded: String) {
        #expect(Base64URL.encode(Data(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test("uses - and _ instead of + and /")
    func urlAlphabet() {
        let bytes = Data([0xFB, 0xFF, 0xBF])
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(Base64URL.decode("-_-_") == bytes)
        #expect(Base64URL.decode("+/+/") == nil)
    }

    @Test("accepts correct padding")
    func padding() {
        #expect(Base64URL.decode("Zg==") == Data("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Data("fo".utf8))
    }

    @Test(
        "rejects malformed input",
        arguments: [
            "Z", "Zm9vY", "Zg=", "Zg===", "Z===", "Zm=8", "=Zm8", "Zm 9v", "Zm9v\n", "Zm9v!", "é",
            "Zh", "Zm9",  // non-zero trailing bits: non-canonical
        ])
    func rejects(input: String) {
        #expect(Base64URL.decode(input) == nil)
    }

    @Test("round-trips every length up to 64 bytes")
    func roundTrip() {
        for length in 0...64 {
            let data = SecureRandom.bytes(length)
            let encoded = Base64URL.encode(data)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == data)
            #expect(
                encoded
                    == data.base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: ""))
        }
    }
}
