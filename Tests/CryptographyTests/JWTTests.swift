import Cryptography
import Foundation
import JSONBytes
import Testing

@Suite("JWT")
struct JWTTests {
    static let rsa = RSATests.generated
    static let ed = Ed25519PrivateKey.generate()
    static let secret = SecureRandom.bytes(32)

    /// The Unico OAuth2 JWT-bearer assertion shape.
    let assertion: [String: JSONValue] = [
        "iss": "journeys-service@tenant.iam.acesso.io",
        "aud": "https://identityhomolog.acesso.io",
        "scope": "*",
        "iat": 1_700_000_000,
        "exp": 1_700_003_600,
    ]

    @Test("RS256 round trip with the Unico assertion claims")
    func rs256RoundTrip() throws {
        let token = try JWT.sign(claims: assertion, header: ["kid": "key-1"], with: .rs256(Self.rsa))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[0]) == Data(#"{"alg":"RS256","kid":"key-1","typ":"JWT"}"#.utf8))
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))

        let verified = try JWT.verify(token, with: .rs256(Self.rsa.publicKey))
        #expect(verified.header["alg"] == "RS256")
        #expect(verified.header["kid"]?.stringValue == "key-1")
        #expect(verified.claims == assertion)
        #expect(verified.issuer == "journeys-service@tenant.iam.acesso.io")
        #expect(verified.audience == ["https://identityhomolog.acesso.io"])
        #expect(verified.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try JWT.unverifiedHeader(of: token)["kid"] == "key-1")
    }

    @Test("RS256 JWT signature verifies with openssl dgst")
    func rs256OpenSSL() throws {
        let cli = try OpenSSLCLI()
        let token = try JWT.sign(claims: assertion, with: .rs256(Self.rsa))
        let parts = token.split(separator: ".")
        try cli.write("input.txt", "\(parts[0]).\(parts[1])")
        try cli.write("sig.bin", try #require(Base64URL.decode(parts[2])))
        try cli.write("pub.pem", try Self.rsa.publicKey.pem)
        try cli.mustRun("dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.bin", "input.txt")
    }

    @Test("EdDSA and HS256 round trips")
    func otherAlgorithms() throws {
        let edToken = try JWT.sign(claims: ["sub": "journey-1"], with: .edDSA(Self.ed))
        #expect(try JWT.unverifiedHeader(of: edToken)["alg"] == "EdDSA")
        #expect(try JWT.verify(edToken, with: .edDSA(Self.ed.publicKey)).subject == "journey-1")

        let hsToken = try JWT.sign(claims: ["sub": "journey-2"], with: .hs256(Self.secret))
        #expect(try JWT.unverifiedHeader(of: hsToken)["alg"] == "HS256")
        #expect(try JWT.verify(hsToken, with: .hs256(Self.secret)).subject == "journey-2")
    }

    @Test("RFC 7515 A.1 HS256 example verifies")
    func rfc7515Example() throws {
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let key = try #require(
            Base64URL.decode(
                "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let verified = try JWT.verify(token, with: .hs256(key))
        #expect(verified.issuer == "joe")
        #expect(verified.claims["http://example.com/is_root"] == true)
        #expect(verified.expiresAt == Date(timeIntervalSince1970: 1_300_819_380))
        #expect(throws: CryptoError(.tokenExpired, "JWT expired at 1300819380")) {
            try JWT.verify(token, with: .hs256(key), now: Date(timeIntervalSince1970: 1_300_819_380))
        }
        _ = try JWT.verify(token, with: .hs256(key), now: Date(timeIntervalSince1970: 1_300_819_379))
    }

    @Test("RFC 8037 A.4 EdDSA example signature matches")
    func rfc8037Example() throws {
        let key = try Ed25519PrivateKey(
            rawRepresentation: try #require(
                Base64URL.decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")))
        #expect(Base64URL.encode(key.publicKey.rawRepresentation) == "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
        let input = Data("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        let expected = "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
        #expect(Base64URL.encode(try key.signature(for: input)) == expected)
    }

    @Test("alg none is rejected in any spelling")
    func algNone() throws {
        let payload = Base64URL.encode(Data(#"{"sub":"admin"}"#.utf8))
        for alg in ["none", "None", "NONE"] {
            let header = Base64URL.encode(Data(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8))
            for key: JWT.VerificationKey in [.rs256(Self.rsa.publicKey), .hs256(Self.secret), .edDSA(Self.ed.publicKey)] {
                let error = try #require(throws: CryptoError.self) { try JWT.verify("\(header).\(payload).AAAA", with: key) }
                #expect(error.code == .algorithmMismatch)
                // Without a signature part the token is malformed.
                let empty = try #require(throws: CryptoError.self) { try JWT.verify("\(header).\(payload).", with: key) }
                #expect(empty.code == .invalidEncoding)
            }
        }
    }

    @Test("algorithm confusion is rejected")
    func algorithmConfusion() throws {
        // Classic attack: HS256 token keyed with the RSA public key's PEM text.
        let publicPEM = Data(try Self.rsa.publicKey.pem.utf8)
        let forged = try JWT.sign(claims: ["sub": "admin"], with: .hs256(publicPEM))
        let error = try #require(throws: CryptoError.self) { try JWT.verify(forged, with: .rs256(Self.rsa.publicKey)) }
        #expect(error.code == .algorithmMismatch && error.code.rawValue == "algorithm_mismatch")

        let rsToken = try JWT.sign(claims: ["sub": "x"], with: .rs256(Self.rsa))
        #expect(throws: CryptoError.self) { try JWT.verify(rsToken, with: .hs256(Self.secret)) }
        #expect(throws: CryptoError.self) { try JWT.verify(rsToken, with: .edDSA(Self.ed.publicKey)) }
        let edToken = try JWT.sign(claims: ["sub": "x"], with: .edDSA(Self.ed))
        #expect(throws: CryptoError.self) { try JWT.verify(edToken, with: .rs256(Self.rsa.publicKey)) }
    }

    @Test("wrong keys and tampered parts fail with invalid_signature")
    func tampering() throws {
        let token = try JWT.sign(claims: ["sub": "user-1", "role": "viewer"], with: .rs256(Self.rsa))
        let parts = token.split(separator: ".").map(String.init)
        let other = try RSAPrivateKey.generate()
        let forgedPayload = Base64URL.encode(Data(#"{"role":"admin","sub":"user-1"}"#.utf8))
        var flippedSignature = try #require(Base64URL.decode(parts[2]))
        flippedSignature[0] ^= 1
        let otherHeader = Base64URL.encode(Data(#"{"alg":"RS256","kid":"x","typ":"JWT"}"#.utf8))

        let cases: [(String, JWT.VerificationKey)] = [
            (token, .rs256(other.publicKey)),
            ("\(parts[0]).\(forgedPayload).\(parts[2])", .rs256(Self.rsa.publicKey)),
            ("\(otherHeader).\(parts[1]).\(parts[2])", .rs256(Self.rsa.publicKey)),
            ("\(parts[0]).\(parts[1]).\(Base64URL.encode(flippedSignature))", .rs256(Self.rsa.publicKey)),
            (try JWT.sign(claims: ["a": 1], with: .hs256(SecureRandom.bytes(32))), .hs256(Self.secret)),
            (try JWT.sign(claims: ["a": 1], with: .edDSA(.generate())), .edDSA(Self.ed.publicKey)),
        ]
        for (token, key) in cases {
            let error = try #require(throws: CryptoError.self) { try JWT.verify(token, with: key) }
            #expect(error.code == .invalidSignature, "\(error)")
        }
    }

    @Test("malformed tokens fail with invalid_encoding")
    func malformed() throws {
        let key = JWT.VerificationKey.hs256(Self.secret)
        let good = try JWT.sign(claims: ["a": 1], with: .hs256(Self.secret))
        let parts = good.split(separator: ".").map(String.init)
        let header = { (json: String) in Base64URL.encode(Data(json.utf8)) }
        let withCrit = try JWT.sign(claims: ["a": 1], header: ["crit": ["exp"], "exp": 1], with: .hs256(Self.secret))
        let notObject = try signRaw(header: #"{"alg":"HS256"}"#, payload: "[1,2]")
        for token in [
            "", "abc", "\(parts[0]).\(parts[1])", "\(good).\(parts[2])", "\(good)..x.y",
            "\(parts[0]).\(parts[1]).sig+/", "\(header("[]")).\(parts[1]).\(parts[2])",
            "\(header("{\"typ\":\"JWT\"}")).\(parts[1]).\(parts[2])", "\(header("not json")).\(parts[1]).\(parts[2])",
            withCrit, notObject, String(repeating: "a", count: JWT.maximumTokenLength + 1),
        ] {
            let error = try #require(throws: CryptoError.self) { try JWT.verify(token, with: key) }
            #expect(error.code == .invalidEncoding, "\(token.prefix(80)): \(error)")
        }
    }

    private func signRaw(header: String, payload: String) throws -> String {
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        return input + "." + Base64URL.encode(HMACSHA256.authenticate(Data(input.utf8), key: Self.secret))
    }

    @Test("signing rejects a conflicting alg, weak HMAC secrets and non-object claims")
    func signingChecks() throws {
        let mismatch = try #require(throws: CryptoError.self) {
            try JWT.sign(claims: ["a": 1], header: ["alg": "HS256"], with: .rs256(Self.rsa))
        }
        #expect(mismatch.code == .invalidArgument)
        #expect(
            try JWT.sign(claims: ["a": 1], header: ["alg": "RS256", "typ": "at+jwt"], with: .rs256(Self.rsa))
                .hasPrefix(Base64URL.encode(Data(#"{"alg":"RS256","typ":"at+jwt"}"#.utf8))))
        let weak = try #require(throws: CryptoError.self) { try JWT.sign(claims: ["a": 1], with: .hs256(Data(count: 31))) }
        #expect(weak.code == .invalidKey)
        let token = try JWT.sign(claims: ["a": 1], with: .hs256(Self.secret))
        #expect(throws: CryptoError.self) { try JWT.verify(token, with: .hs256(Self.secret.prefix(16))) }
        #expect(throws: CryptoError.self) { try JWT.sign(claims: [1, 2], with: .hs256(Self.secret)) }
        #expect(throws: CryptoError.self) { try JWT.sign(claims: "text", with: .hs256(Self.secret)) }
    }

    struct ClientToken: Codable, Equatable {
        let sub: String
        let journeyID: UUID
        let iat: Date
        let exp: Date
    }

    @Test("Codable claims: Dates become integer NumericDates and decode back")
    func codableClaims() throws {
        let claims = ClientToken(
            sub: "device-7", journeyID: UUID(),
            iat: Date(timeIntervalSince1970: 1_700_000_000.75), exp: Date(timeIntervalSince1970: 1_700_000_600))
        let token = try JWT.sign(claims: claims, with: .edDSA(Self.ed))
        let verified = try JWT.verify(token, with: .edDSA(Self.ed.publicKey))
        #expect(verified.claims["iat"] == .integer(1_700_000_000))
        #expect(verified.claims["exp"] == .integer(1_700_000_600))
        let decoded = try verified.decodeClaims(as: ClientToken.self)
        #expect(decoded.journeyID == claims.journeyID)
        #expect(decoded.iat == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(decoded.exp == claims.exp)
        let wrongShape = try #require(throws: CryptoError.self) { try verified.decodeClaims(as: [String: Int].self) }
        #expect(wrongShape.code == .invalidEncoding)
    }

    @Test("validity window: exp, nbf and leeway")
    func validity() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try JWT.sign(
            claims: ["nbf": 1_800_000_000, "exp": 1_800_000_300] as [String: JSONValue], with: .hs256(Self.secret))
        let key = JWT.VerificationKey.hs256(Self.secret)
        #expect(try JWT.verify(token, with: key, now: now).notBefore == now)
        _ = try JWT.verify(token, with: key, now: now.addingTimeInterval(299))

        let expired = try #require(throws: CryptoError.self) {
            try JWT.verify(token, with: key, now: now.addingTimeInterval(300))
        }
        #expect(expired.code == .tokenExpired && expired.code.rawValue == "token_expired")
        _ = try JWT.verify(token, with: key, now: now.addingTimeInterval(330), leeway: 60)

        let early = try #require(throws: CryptoError.self) { try JWT.verify(token, with: key, now: now.addingTimeInterval(-1)) }
        #expect(early.code == .tokenNotYetValid)
        _ = try JWT.verify(token, with: key, now: now.addingTimeInterval(-30), leeway: 60)

        let bogusExp = try JWT.sign(claims: ["exp": "tomorrow"], with: .hs256(Self.secret))
        let bogus = try #require(throws: CryptoError.self) { try JWT.verify(bogusExp, with: key, now: now) }
        #expect(bogus.code == .invalidEncoding)
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test func codableRoundTripAndAccessors() throws {
        let value: JSONValue = ["s": "x", "i": 42, "d": 1.5, "b": false, "n": nil, "a": [1, "two"], "o": ["k": true]]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
        #expect(decoded["s"]?.stringValue == "x")
        #expect(decoded["i"]?.intValue == 42 && decoded["i"]?.doubleValue == 42)
        #expect(decoded["d"]?.doubleValue == 1.5 && decoded["d"]?.intValue == nil)
        #expect(decoded["b"]?.boolValue == false)
        #expect(decoded["n"] == .null)
        #expect(decoded["a"]?.arrayValue?.count == 2)
        #expect(decoded["o"]?["k"] == true)
        #expect(decoded["missing"] == nil && JSONValue.string("x")["k"] == nil)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("1e3".utf8)).intValue == 1000)
    }
}
