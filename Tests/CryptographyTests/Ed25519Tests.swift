import Cryptography
import Foundation
import Testing

@Suite("Ed25519")
struct Ed25519Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name, secretKey, publicKey, message, signature: String
        var testDescription: String { name }
    }

    /// RFC 8032 §7.1, TEST 1–3.
    static let vectors = [
        Vector(
            name: "TEST 1",
            secretKey: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            message: "",
            signature:
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        Vector(
            name: "TEST 2",
            secretKey: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            message: "72",
            signature:
                "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        Vector(
            name: "TEST 3",
            secretKey: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            publicKey: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            message: "af82",
            signature:
                "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    ]

    @Test("RFC 8032 vectors", arguments: vectors)
    func rfc8032(vector: Vector) throws {
        let secret = try #require(Hex.decode(vector.secretKey))
        let message = try #require(Hex.decode(vector.message))
        let expected = try #require(Hex.decode(vector.signature))
        let key = try Ed25519PrivateKey(rawRepresentation: secret)
        #expect(key.rawRepresentation == secret)
        #expect(Hex.encode(key.publicKey.rawRepresentation) == vector.publicKey)
        #expect(try key.signature(for: message) == expected)

        let publicKey = try Ed25519PublicKey(rawRepresentation: try #require(Hex.decode(vector.publicKey)))
        #expect(publicKey == key.publicKey)
        #expect(publicKey.isValidSignature(expected, for: message))
        var flipped = expected
        flipped[0] ^= 0x01
        #expect(!publicKey.isValidSignature(flipped, for: message))
        #expect(!publicKey.isValidSignature(expected, for: message + Data([0])))
    }

    @Test("generated keys sign, verify and round-trip through raw and PEM forms")
    func generatedRoundTrip() throws {
        let key = Ed25519PrivateKey.generate()
        let other = Ed25519PrivateKey.generate()
        #expect(key.rawRepresentation != other.rawRepresentation)
        let message = Data("webAppToken".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!other.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: message))

        let pem = try key.pemPKCS8
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try Ed25519PrivateKey(pem: pem).rawRepresentation == key.rawRepresentation)
        let publicPEM = try key.publicKey.pem
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try Ed25519PublicKey(pem: publicPEM) == key.publicKey)
        #expect(try Ed25519PrivateKey(rawRepresentation: key.rawRepresentation).publicKey == key.publicKey)
    }

    @Test("rejects wrong sizes and foreign keys")
    func rejections() throws {
        for count in [0, 31, 33, 64] {
            #expect(throws: CryptoError.self) { try Ed25519PrivateKey(rawRepresentation: Data(count: count)) }
            #expect(throws: CryptoError.self) { try Ed25519PublicKey(rawRepresentation: Data(count: count)) }
        }
        let rsa = RSATests.generated
        let error = try #require(throws: CryptoError.self) { try Ed25519PrivateKey(pem: try rsa.pemPKCS8) }
        #expect(error.code == .invalidKey)
        #expect(throws: CryptoError.self) { try Ed25519PublicKey(pem: try rsa.publicKey.pem) }
        #expect(throws: CryptoError.self) { try Ed25519PublicKey(pem: try Ed25519PrivateKey.generate().pemPKCS8) }
    }

    @Test("cross-check with openssl pkeyutl in both directions")
    func crossCheckOpenSSL() throws {
        let cli = try OpenSSLCLI()
        let message = Data("eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0".utf8)
        try cli.write("msg.bin", message)

        // openssl key and signature, Swift verifies.
        try cli.mustRun("genpkey", "-algorithm", "ED25519", "-out", "key.pem")
        try cli.mustRun("pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem")
        try cli.mustRun("pkeyutl", "-sign", "-inkey", "key.pem", "-rawin", "-in", "msg.bin", "-out", "openssl.sig")
        let key = try Ed25519PrivateKey(pem: try cli.readText("key.pem"))
        let publicKey = try Ed25519PublicKey(pem: try cli.readText("pub.pem"))
        #expect(publicKey == key.publicKey)
        let opensslSignature = try cli.read("openssl.sig")
        #expect(publicKey.isValidSignature(opensslSignature, for: message))
        #expect(try key.signature(for: message) == opensslSignature)

        // Swift key and signature, openssl verifies.
        let swiftKey = Ed25519PrivateKey.generate()
        try cli.write("swiftpub.pem", try swiftKey.publicKey.pem)
        try cli.write("swift.sig", try swiftKey.signature(for: message))
        let verified = try cli.run(
            "pkeyutl", "-verify", "-pubin", "-inkey", "swiftpub.pem", "-rawin",
            "-in", "msg.bin", "-sigfile", "swift.sig")
        #expect(verified.status == 0 && verified.output.contains("Signature Verified Successfully"), "\(verified.output)")
        try cli.write("other.bin", Data("other".utf8))
        let rejected = try cli.run(
            "pkeyutl", "-verify", "-pubin", "-inkey", "swiftpub.pem", "-rawin",
            "-in", "other.bin", "-sigfile", "swift.sig")
        #expect(rejected.status != 0)
    }
}
