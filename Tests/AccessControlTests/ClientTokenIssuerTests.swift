import AccessControl
import Cryptography
import Foundation
import JSONBytes
import Testing

@Suite struct ClientTokenIssuerTests {
    static let key = Ed25519PrivateKey.generate()
    let issuer = ClientTokenIssuer(signingKey: key)
    let journeyA = UUID()
    let journeyB = UUID()
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// Verifies and returns the error, checking it never repeats the token.
    func refusal(_ token: String, journeyID: UUID? = nil, at date: Date? = nil) throws -> AccessError {
        let error = try #require(throws: AccessError.self) {
            try issuer.verify(token, journeyID: journeyID ?? journeyA, now: date ?? now)
        }
        if let signature = token.split(separator: ".").last, signature.count > 8 {
            #expect(!error.message.contains(signature) && !error.description.contains(signature))
        }
        return error
    }

    /// Signs arbitrary claims as if by the issuer's own key.
    func forged(_ claims: [String: JSONValue], key: JWT.SigningKey = .edDSA(ClientTokenIssuerTests.key)) throws -> String {
        try JWT.sign(claims: claims, with: key)
    }

    func claims(sub: UUID? = nil, aud: String = "journey-client", iat: Date? = nil, exp: Date? = nil) -> [String: JSONValue] {
        let issued = iat ?? now
        return [
            "sub": .string((sub ?? journeyA).uuidString.lowercased()), "aud": .string(aud),
            "iat": .integer(Int(issued.timeIntervalSince1970)),
            "exp": .integer(Int((exp ?? issued.addingTimeInterval(900)).timeIntervalSince1970)),
            "jti": .string(UUID().uuidString.lowercased()),
        ]
    }

    @Test func aValidTokenVerifiesForItsJourney() throws {
        let token = try issuer.issue(journeyID: journeyA, now: now)
        let header = try JWT.unverifiedHeader(of: token)
        #expect(header["alg"] == "EdDSA")
        let claims = try issuer.verify(token, journeyID: journeyA, now: now.addingTimeInterval(60))
        #expect(claims.journeyID == journeyA)
        #expect(claims.audience == "journey-client")
        #expect(claims.issuedAt == now)
        #expect(claims.expiresAt == now.addingTimeInterval(15 * 60))
        let other = try issuer.verify(try issuer.issue(journeyID: journeyA, now: now), journeyID: journeyA, now: now)
        #expect(other.tokenID != claims.tokenID)
        let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
        #expect(String(decoding: payload, as: UTF8.self).contains(#""sub":"\#(journeyA.uuidString.lowercased())""#))
    }

    @Test func anExpiredTokenIsRefusedAfterASmallLeeway() throws {
        let token = try issuer.issue(journeyID: journeyA, now: now, lifetime: 60)
        _ = try issuer.verify(token, journeyID: journeyA, now: now.addingTimeInterval(64))
        let error = try refusal(token, at: now.addingTimeInterval(65))
        #expect(error.code == .tokenExpired && error.httpStatus == 401)
        #expect(
            try refusal(try issuer.issue(journeyID: journeyA, now: now), at: now.addingTimeInterval(3600)).code == .tokenExpired)
    }

    @Test func aTokenOfJourneyACannotBeUsedForJourneyB() throws {
        let token = try issuer.issue(journeyID: journeyA, now: now)
        let error = try refusal(token, journeyID: journeyB)
        #expect(error.code == .wrongJourney && error.httpStatus == 403)
    }

    @Test func aTamperedPayloadIsRefused() throws {
        let token = try issuer.issue(journeyID: journeyA, now: now)
        let parts = token.split(separator: ".").map(String.init)
        let payload = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
        for changed in [
            payload.replacingOccurrences(of: journeyA.uuidString.lowercased(), with: journeyB.uuidString.lowercased()),
            payload.replacingOccurrences(of: #""exp":"#, with: #""exp":9"#),
        ] {
            #expect(changed != payload)
            let tampered = [parts[0], Base64URL.encode(Data(changed.utf8)), parts[2]].joined(separator: ".")
            #expect(try refusal(tampered, journeyID: journeyB).code == .invalidToken)
            #expect(try refusal(tampered).code == .invalidToken)
        }
    }

    @Test func aTokenSignedByAnotherKeyIsRefused() throws {
        let stranger = ClientTokenIssuer(signingKey: .generate())
        let error = try refusal(try stranger.issue(journeyID: journeyA, now: now))
        #expect(error.code == .invalidToken && error.httpStatus == 401)
        #expect(try refusal(try ClientTokenIssuer.development().issue(journeyID: journeyA, now: now)).code == .invalidToken)
    }

    @Test func aTokenForAnotherAudienceIsRefused() throws {
        for aud in ["journey-service", "", "JOURNEY-CLIENT"] {
            #expect(try refusal(try forged(claims(aud: aud))).code == .invalidToken)
        }
        var both = claims()
        both["aud"] = .array(["journey-client", "admin-console"])
        #expect(try refusal(try forged(both)).code == .invalidToken)
        _ = try issuer.verify(try forged(claims()), journeyID: journeyA, now: now)
    }

    @Test func otherAlgorithmsAreRefused() throws {
        // HS256 keyed with the public key: the classic confusion attack.
        let confused = try forged(claims(), key: .hs256(issuer.publicKey.rawRepresentation))
        let error = try refusal(confused)
        #expect(error.code == .invalidToken && error.message.contains("EdDSA"))
        let unsigned =
            Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
            + Base64URL.encode(try JSONEncoder().encode(claims())) + "."
        #expect(try refusal(unsigned).code == .invalidToken)
        #expect(try refusal(unsigned + "c2ln").code == .invalidToken)
        let relabelled =
            Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "."
            + (try issuer.issue(journeyID: journeyA, now: now)).split(separator: ".").dropFirst().joined(separator: ".")
        #expect(try refusal(relabelled).code == .invalidToken)
    }

    @Test func malformedTokensAndClaimsAreRefused() throws {
        for token in ["", "abc", "a.b", "a.b.c", "...", "e30.e30.e30", String(repeating: "a", count: 70_000)] {
            #expect(try refusal(token).code == .invalidToken, "\(token.prefix(12))")
        }
        var notUUID = claims()
        notUUID["sub"] = "journey-a"
        var noExpiry = claims()
        noExpiry["exp"] = nil
        var textExpiry = claims()
        textExpiry["exp"] = "tomorrow"
        for bad in [notUUID, noExpiry, textExpiry] {
            #expect(try refusal(try forged(bad)).code == .invalidToken)
        }
        let future = try forged(claims(iat: now.addingTimeInterval(3600)))
        #expect(try refusal(future).code == .invalidToken)
    }

    @Test func lifetimesAreBounded() throws {
        for lifetime in [0, -1, 3601] as [TimeInterval] {
            let error = try #require(throws: AccessError.self) {
                try issuer.issue(journeyID: journeyA, now: now, lifetime: lifetime)
            }
            #expect(error.code == .invalidArgument)
        }
        _ = try issuer.issue(journeyID: journeyA, now: now, lifetime: 3600)
    }

    @Test func theSigningKeyComesFromTheEnvironment() throws {
        let raw = Base64URL.encode(Self.key.rawRepresentation)
        let configured = try ClientTokenIssuer(environment: ["JOURNEYS_CLIENT_TOKEN_KEY": raw + "\n"])
        #expect(!configured.isDevelopmentKey)
        _ = try issuer.verify(try configured.issue(journeyID: journeyA, now: now), journeyID: journeyA, now: now)

        let missing = try #require(throws: AccessError.self) { try ClientTokenIssuer(environment: [:]) }
        #expect(missing.code == .invalidConfiguration && missing.message.contains("JOURNEYS_CLIENT_TOKEN_KEY"))
        for bad in [String(raw.dropLast(4)), raw + raw, "not base64!"] {
            let error = try #require(throws: AccessError.self) {
                try ClientTokenIssuer(environment: ["JOURNEYS_CLIENT_TOKEN_KEY": bad])
            }
            #expect(error.code == .invalidConfiguration && !error.message.contains(bad))
        }
    }

    @Test func theDevelopmentKeyIsFixedAndMarked() throws {
        let development = try ClientTokenIssuer.development()
        #expect(development.isDevelopmentKey && !issuer.isDevelopmentKey)
        let token = try development.issue(journeyID: journeyA, now: now)
        _ = try ClientTokenIssuer.development().verify(token, journeyID: journeyA, now: now)
    }
}
