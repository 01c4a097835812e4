import Cryptography
import Foundation
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test(
        "NIST FIPS 180-2 vectors",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func nistVectors(message: String, expected: String) {
        #expect(SHA256.hexDigest(message) == expected)
        #expect(SHA256.hash(Data(message.utf8)) == Hex.decode(expected))
        #expect(SHA256.hash(Array(message.utf8)).count == 32)
    }

    @Test("one million 'a' characters")
    func millionA() {
        let data = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(data) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("non-contiguous and sliced input hash like their bytes")
    func fragmentedInput() {
        let whole = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        let fragmented = DispatchData.from(whole.prefix(10), whole.dropFirst(10))
        #expect(SHA256.hash(fragmented) == SHA256.hash(whole))
        let slice = Data("xxabcxx".utf8).dropFirst(2).dropLast(2)
        #expect(SHA256.hexDigest(slice) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

@Suite("Hex")
struct HexTests {
    @Test func roundTrip() {
        let bytes = Data([0x00, 0x01, 0x7F, 0x80, 0xAB, 0xFF])
        #expect(Hex.encode(bytes) == "00017f80abff")
        #expect(Hex.decode("00017F80abFF") == bytes)
        #expect(Hex.decode("") == Data())
    }

    @Test func rejectsMalformed() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0x00") == nil)
    }
}

extension DispatchData {
    static func from(_ parts: Data...) -> DispatchData {
        var result = DispatchData.empty
        for part in parts {
            part.withUnsafeBytes { result.append(DispatchData(bytes: $0)) }
        }
        return result
    }
}
