import Cryptography
import Foundation
import Testing

@Suite("RSA / RS256")
struct RSATests {
    /// One generated key shared by the suite; 2048-bit generation is slow-ish.
    static let generated: RSAPrivateKey = {
        do { return try RSAPrivateKey.generate(bits: 2048) } catch { preconditionFailure("\(error)") }
    }()

    let message = Data("eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodGoifQ".utf8)

    @Test("generated key signs, verifies and round-trips through PKCS#8 and PKCS#1 PEM")
    func generatedRoundTrip() throws {
        let key = Self.generated
        #expect(key.bits == 2048)
        let signature = try key.sign(message)
        #expect(signature.count == 256)
        #expect(key.publicKey.isValidSignature(signature, for: message))

        let pkcs8 = try key.pemPKCS8
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let pkcs1 = try key.pemPKCS1
        #expect(pkcs1.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        for pem in [pkcs8, pkcs1] {
            let reloaded = try RSAPrivateKey(pem: pem)
            #expect(reloaded.publicKey == key.publicKey)
            // PKCS#1 v1.5 signatures are deterministic: same key, same signature.
            #expect(try reloaded.signature(for: message) == signature)
        }

        let spki = try key.publicKey.pem
        #expect(spki.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let rsaPublic = try key.publicKey.pemPKCS1
        #expect(rsaPublic.hasPrefix("-----BEGIN RSA PUBLIC KEY-----"))
        for pem in [spki, rsaPublic] {
            let publicKey = try RSAPublicKey(pem: pem)
            #expect(publicKey == key.publicKey)
            #expect(publicKey.isValidSignature(signature, for: message))
        }
        #expect(try RSAPrivateKey.generate().publicKey != key.publicKey)
    }

    @Test("one shared key signs and verifies concurrently")
    func concurrentUse() async throws {
        let key = Self.generated
        let ed = Ed25519PrivateKey.generate()
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let data = Data("message \(index)".utf8)
                    let rsaOK = key.publicKey.isValidSignature(try key.sign(data), for: data)
                    let edOK = ed.publicKey.isValidSignature(try ed.signature(for: data), for: data)
                    return rsaOK && edOK
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }

    @Test("detects tampering and wrong keys")
    func tamperDetection() throws {
        let key = Self.generated
        let signature = try key.sign(message)
        var flipped = signature
        flipped[100] ^= 0x20
        #expect(!key.publicKey.isValidSignature(flipped, for: message))
        var changed = message
        changed[changed.count - 1] ^= 0x01
        #expect(!key.publicKey.isValidSignature(signature, for: changed))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: message))
        #expect(!key.publicKey.isValidSignature(Data(), for: message))
        let other = try RSAPrivateKey.generate()
        #expect(!other.publicKey.isValidSignature(signature, for: message))
    }

    @Test("PKCS#8 key from openssl genpkey: Swift signs, openssl verifies, and the reverse")
    func crossCheckPKCS8() throws {
        let cli = try OpenSSLCLI()
        try cli.mustRun("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem")
        try cli.mustRun("pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem")
        let keyPEM = try cli.readText("key.pem")
        #expect(keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        try crossCheck(
            cli: cli, key: try RSAPrivateKey(pem: keyPEM), publicKey: try RSAPublicKey(pem: try cli.readText("pub.pem")))
    }

    @Test("PKCS#1 key from openssl genrsa -traditional: Swift signs, openssl verifies, and the reverse")
    func crossCheckPKCS1() throws {
        let cli = try OpenSSLCLI()
        try cli.mustRun("genrsa", "-traditional", "-out", "key.pem", "2048")
        try cli.mustRun("rsa", "-in", "key.pem", "-RSAPublicKey_out", "-out", "rsapub.pem")
        try cli.mustRun("rsa", "-in", "key.pem", "-pubout", "-out", "pub.pem")
        let keyPEM = try cli.readText("key.pem")
        #expect(keyPEM.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        let rsaPublicPEM = try cli.readText("rsapub.pem")
        #expect(rsaPublicPEM.hasPrefix("-----BEGIN RSA PUBLIC KEY-----"))
        let key = try RSAPrivateKey(pem: keyPEM)
        #expect(try RSAPublicKey(pem: rsaPublicPEM) == key.publicKey)
        try crossCheck(cli: cli, key: key, publicKey: try RSAPublicKey(pem: rsaPublicPEM))
    }

    private func crossCheck(cli: OpenSSLCLI, key: RSAPrivateKey, publicKey: RSAPublicKey) throws {
        #expect(publicKey == key.publicKey)
        try cli.write("data.bin", message)

        // Swift signs, openssl verifies (with openssl's own public key file).
        try cli.write("swift.sig", try key.sign(message))
        let verified = try cli.run("dgst", "-sha256", "-verify", "pub.pem", "-signature", "swift.sig", "data.bin")
        #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.output)")

        // Swift's exported SPKI PEM is accepted by openssl too.
        try cli.write("swiftpub.pem", try key.publicKey.pem)
        try cli.mustRun("dgst", "-sha256", "-verify", "swiftpub.pem", "-signature", "swift.sig", "data.bin")

        // openssl refuses a Swift signature over other data.
        try cli.write("other.bin", Data("other".utf8))
        let rejected = try cli.run("dgst", "-sha256", "-verify", "pub.pem", "-signature", "swift.sig", "other.bin")
        #expect(rejected.status != 0)

        // openssl signs, Swift verifies; both produce the identical deterministic signature.
        try cli.mustRun("dgst", "-sha256", "-sign", "key.pem", "-out", "openssl.sig", "data.bin")
        let opensslSignature = try cli.read("openssl.sig")
        #expect(publicKey.isValidSignature(opensslSignature, for: message))
        #expect(!publicKey.isValidSignature(opensslSignature, for: Data("other".utf8)))
        #expect(opensslSignature == (try key.sign(message)))
    }

    @Test("rejects weak, foreign, encrypted and malformed keys with stable codes")
    func rejections() throws {
        let cli = try OpenSSLCLI()
        try cli.mustRun("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "weak.pem")
        try cli.mustRun("pkey", "-in", "weak.pem", "-pubout", "-out", "weakpub.pem")
        try cli.mustRun("genpkey", "-algorithm", "ED25519", "-out", "ed.pem")
        try cli.mustRun("pkey", "-in", "ed.pem", "-pubout", "-out", "edpub.pem")
        try cli.mustRun(
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
            "-aes-256-cbc", "-pass", "pass:hunter2", "-out", "encrypted.pem")
        try cli.mustRun("genrsa", "-traditional", "-aes256", "-passout", "pass:hunter2", "-out", "encrypted1.pem", "2048")

        let weak = try cli.readText("weak.pem")
        let error = try #require(throws: CryptoError.self) { try RSAPrivateKey(pem: weak) }
        #expect(error.code == .invalidKey && error.code.rawValue == "invalid_key")
        #expect(error.message.contains("1024"))
        #expect(!error.message.contains(weak.split(separator: "\n")[1]))
        #expect(throws: CryptoError(.invalidKey, "RSA key has 1024 bits; at least 2048 required")) {
            try RSAPublicKey(pem: try cli.readText("weakpub.pem"))
        }

        for (pem, code) in [
            (try cli.readText("ed.pem"), CryptoError.Code.invalidKey),
            (try cli.readText("encrypted.pem"), .invalidKey),
            (try cli.readText("encrypted1.pem"), .invalidKey),
            (try Self.generated.publicKey.pem, .invalidKey),
            ("not a key", .invalidEncoding),
            ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .invalidKey),
        ] {
            let error = try #require(throws: CryptoError.self) { try RSAPrivateKey(pem: pem) }
            #expect(error.code == code, "\(error)")
        }
        for pem in [try cli.readText("edpub.pem"), try Self.generated.pemPKCS8] {
            let error = try #require(throws: CryptoError.self) { try RSAPublicKey(pem: pem) }
            #expect(error.code == .invalidKey, "\(error)")
        }
        #expect(throws: CryptoError.self) { try RSAPrivateKey.generate(bits: 1024) }
    }
}
