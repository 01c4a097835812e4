@testable import AccessControl
import Cryptography
import Foundation
import Testing

@Suite struct ScopeAndCredentialTests {
    @Test func adminImpliesEveryScopeAndOthersOnlyThemselves() throws {
        let admin = Principal(keyID: UUID(), name: "ops", prefix: "abcdefgh", scopes: [.admin])
        for scope in Scope.allCases { try admin.require(scope) }
        let reader = Principal(keyID: UUID(), name: "bi", prefix: "abcdefgh", scopes: [.journeysRead, .reportsRead])
        try reader.require(.journeysRead)
        try reader.require(.reportsRead)
        for missing in [Scope.journeysWrite, .admin] {
            let error = try #require(throws: AccessError.self) { try reader.require(missing) }
            #expect(error.code == .forbidden)
            #expect(error.httpStatus == 403)
            #expect(error.missingScope == missing)
            #expect(error.message.contains(missing.rawValue))
            #expect(error.wwwAuthenticate?.contains(#"scope="\#(missing.rawValue)""#) == true)
        }
    }

    @Test func unknownScopesAreRefusedListingTheAllowedOnes() throws {
        #expect(try Scope.parse("journeys:read") == .journeysRead)
        let error = try #require(throws: AccessError.self) { try Scope.parse("journeys:delete") }
        #expect(error.code == .invalidArgument && error.httpStatus == 400)
        #expect(
            error.message.contains(
                "journeys:write, journeys:read, reports:read, subjects:admin, human-token:read, webhooks:admin, admin"))
    }

    @Test func everyCodeHasItsStatus() {
        let expected: [(AccessError.Code, Int)] = [
            (.unauthorized, 401), (.invalidToken, 401), (.tokenExpired, 401), (.forbidden, 403),
            (.wrongJourney, 403), (.invalidArgument, 400), (.keyNotFound, 404), (.invalidConfiguration, 500),
        ]
        for (code, status) in expected { #expect(code.httpStatus == status, "\(code)") }
        #expect(AccessError.missingCredentials.wwwAuthenticate == #"Bearer realm="journeys""#)
        #expect(AccessError.invalidCredentials.wwwAuthenticate?.contains(#"error="invalid_token""#) == true)
    }

    @Test func generatedKeysHaveTheDocumentedShapeAndParseBack() throws {
        let key = APIKeyCredential.generate()
        #expect(key.text.wholeMatch(of: #/jk_[a-z2-7]{8}_[A-Za-z0-9_-]{43}/#) != nil)
        let parsed = try #require(APIKeyCredential(parsing: key.text))
        #expect(parsed.prefix == key.prefix && parsed.hash == key.hash)
        #expect(key.hash == SHA256.hash(key.text))
        #expect(APIKeyCredential.generate().text != key.text)
    }

    @Test func keysNeverPrintTheirSecret() {
        let key = APIKeyCredential.generate()
        let secret = String(key.text.dropFirst(12))
        var dumped = ""
        dump(key, to: &dumped)
        for text in [String(describing: key), String(reflecting: key), "\(key)", dumped] {
            #expect(!text.contains(secret), "\(text)")
            #expect(text.contains(key.prefix))
        }
    }

    @Test func malformedKeysDoNotParse() {
        let good = APIKeyCredential.generate().text
        let bad = [
            "", "jk_", good + "A", String(good.dropLast()), "xk" + good.dropFirst(2),
            "jk_ABCDEFGH_" + good.dropFirst(12), "jk_abcdefg1_" + good.dropFirst(12),
            "jk_abcdefgh-" + good.dropFirst(12), good.replacingOccurrences(of: "jk_", with: "JK_"),
            String(good.prefix(12)) + String(repeating: "+", count: 43),
            String(good.prefix(12)) + String(repeating: "_", count: 42) + "=",
            String(repeating: "a", count: 10_000),
        ]
        for text in bad { #expect(APIKeyCredential(parsing: text) == nil, "\(text.prefix(60))") }
    }

    @Test func bearerHeadersAreParsedStrictly() {
        #expect(BearerCredentials.token(fromAuthorization: "Bearer abc") == "abc")
        #expect(BearerCredentials.token(fromAuthorization: "bearer   abc  ") == "abc")
        #expect(BearerCredentials.token(fromAuthorization: "BEARER abc") == "abc")
        for header in [
            "Basic abc", "Bearer", "Bearer ", "Bearer a b", "Bearerabc", "abc",
            "Bearer " + String(repeating: "a", count: 9000),
        ] {
            #expect(BearerCredentials.token(fromAuthorization: header) == nil, "\(header.prefix(20))")
        }
    }

    @Test func constantTimeComparisonIsEquality() {
        let a = SecureRandom.bytes(32)
        var b = a
        #expect(ConstantTime.equals(a, b))
        b[31] ^= 1
        #expect(!ConstantTime.equals(a, b))
        #expect(!ConstantTime.equals(a, a.prefix(31)))
    }
}
