import Cryptography
import Foundation
import Testing
@testable import HumanTokenAPI

@Suite("JWT-bearer assertion")
struct AssertionTests {
    /// Each second's first lifetime is the longest here (the default draws it at random).
    let signer = AssertionSigner(
        issuer: "sa@acme.iam.acesso.io", audience: "https://identityhomolog.acesso.io", key: TestKeys.account,
        draw: { $0.upperBound })

    @Test func eachSecondsFirstLifetimeIsDrawnFromTheRange() {
        let signer = AssertionSigner(
            issuer: "sa@acme.iam.acesso.io", audience: "https://identityhomolog.acesso.io",
            key: TestKeys.account)
        let lifetimes = (0..<200).map { second in
            let claims = signer.claims(at: Date(timeIntervalSince1970: 1_750_000_000 + Double(second)))
            return claims.exp - claims.iat
        }
        #expect(lifetimes.allSatisfy(AssertionSigner.lifetimeRange.contains))
        #expect(Set(lifetimes).count > 150, "random draws over 2,401 values rarely repeat")
    }

    @Test func headerAndExactlyTheFiveDocumentedClaims() throws {
        let now = Date(timeIntervalSince1970: 1_750_000_000.7)
        let assertion = try signer.assertion(at: now)
        let verified = try JWT.verify(assertion, with: .rs256(TestKeys.account.publicKey))
        #expect(verified.header == ["alg": "RS256", "typ": "JWT"])
        #expect(
            verified.claims == [
                "iss": "sa@acme.iam.acesso.io", "aud": "https://identityhomolog.acesso.io", "scope": "*",
                "iat": .integer(1_750_000_000), "exp": .integer(1_750_003_600),
            ])
        let header = try #require(Base64URL.decode(assertion.split(separator: ".")[0]))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"RS256","typ":"JWT"}"#)
    }

    @Test func assertionsSignedInTheSameSecondDiffer() throws {
        let now = Date(timeIntervalSince1970: 1_750_000_100)
        let assertions = try (0..<5).map { _ in try signer.assertion(at: now) }
        #expect(Set(assertions).count == 5)
        for assertion in assertions {
            let claims = try JWT.verify(assertion, with: .rs256(TestKeys.account.publicKey)).claims
            let lifetime = try #require(claims["exp"]?.intValue) - (try #require(claims["iat"]?.intValue))
            #expect(lifetime > 0 && lifetime <= 3600)
        }
        let later = try JWT.verify(signer.assertion(at: now + 1), with: .rs256(TestKeys.account.publicKey))
        #expect(later.claims["exp"]?.intValue == 1_750_000_101 + 3600)
    }

    @Test func formEncodingEscapesTheGrantType() {
        let body = AccessTokenProvider.formEncoded([
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", "a.b-c_d"), ("x", "1 2+3"),
        ])
        #expect(body == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b-c_d&x=1+2%2B3")
    }
}
