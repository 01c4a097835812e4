import AccessControl
import Cryptography
import Foundation
import JSONBytes
import Testing

/// Key ids on client tokens and dashboard sessions: previous keys verify, unknown kids are refused.
@Suite struct TokenKeyringTests {
    let old = Ed25519PrivateKey.generate()
    let new = Ed25519PrivateKey.generate()
    let journey = UUID()
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    func raw(_ key: Ed25519PrivateKey) -> String { Base64URL.encode(key.rawRepresentation) }

    @Test func tokensNameTheirKeyAndPreviousKeysVerifyUntilExpiry() throws {
        let before = try ClientTokenIssuer(environment: ["JOURNEYS_CLIENT_TOKEN_KEY": raw(old)])
        let oldToken = try before.issue(journeyID: journey, now: now)
        let oldID = TokenKeyring.keyID(of: old.publicKey)
        #expect(try JWT.unverifiedHeader(of: oldToken)["kid"] == .string(oldID))
        #expect(oldID.count == 12 && oldID != TokenKeyring.keyID(of: new.publicKey))

        let after = try ClientTokenIssuer(environment: [
            "JOURNEYS_CLIENT_TOKEN_KEY": raw(new), "JOURNEYS_CLIENT_TOKEN_KEYS_PREVIOUS": " \(raw(old)) ,",
        ])
        #expect(after.keys.keyIDs == [oldID, TokenKeyring.keyID(of: new.publicKey)])
        let newToken = try after.issue(journeyID: journey, now: now)
        #expect(try JWT.unverifiedHeader(of: newToken)["kid"] == .string(after.keys.currentKeyID))
        #expect(try after.verify(oldToken, journeyID: journey, now: now.addingTimeInterval(60)).journeyID == journey)
        #expect(try after.verify(newToken, journeyID: journey, now: now).journeyID == journey)
        let expired = try #require(throws: AccessError.self) {
            try after.verify(oldToken, journeyID: journey, now: now.addingTimeInterval(16 * 60))
        }
        #expect(expired.code == .tokenExpired && expired.httpStatus == 401)

        // Once the old key is dropped, its tokens name an unknown kid: 401.
        let dropped = try ClientTokenIssuer(environment: ["JOURNEYS_CLIENT_TOKEN_KEY": raw(new)])
        let unknown = try #require(throws: AccessError.self) { try dropped.verify(oldToken, journeyID: journey, now: now) }
        #expect(unknown.code == .invalidToken && unknown.httpStatus == 401 && unknown.message.contains("unknown key"))
    }

    @Test func aKidCannotPickAKeyTheTokenWasNotSignedWith() throws {
        let issuer = ClientTokenIssuer(keys: TokenKeyring(current: new, previous: [old.publicKey]))
        let claims: [String: JSONValue] = [
            "sub": .string(journey.uuidString.lowercased()), "aud": "journey-client",
            "iat": .integer(Int(now.timeIntervalSince1970)), "exp": .integer(Int(now.timeIntervalSince1970) + 600),
            "jti": .string(UUID().uuidString.lowercased()),
        ]
        let stranger = Ed25519PrivateKey.generate()
        for kid: JSONValue in [.string(TokenKeyring.keyID(of: old.publicKey)), .string("made-up"), .integer(3)] {
            let token = try JWT.sign(claims: claims, header: ["kid": kid], with: .edDSA(stranger))
            let error = try #require(throws: AccessError.self) { try issuer.verify(token, journeyID: journey, now: now) }
            #expect(error.code == .invalidToken, "\(kid)")
        }
        // A token without kid (issued before key ids) is checked against the current key only.
        let legacy = try JWT.sign(claims: claims, with: .edDSA(new))
        #expect(try issuer.verify(legacy, journeyID: journey, now: now).journeyID == journey)
        let legacyOld = try JWT.sign(claims: claims, with: .edDSA(old))
        #expect(throws: AccessError.self) { try issuer.verify(legacyOld, journeyID: journey, now: now) }
    }

    @Test func sessionsHaveTheirOwnKeys() throws {
        let variables = [
            "JOURNEYS_CLIENT_TOKEN_KEY": raw(old), "JOURNEYS_SESSION_KEY": raw(new),
            "JOURNEYS_SESSION_KEYS_PREVIOUS": raw(Ed25519PrivateKey.generate()),
        ]
        let clientTokens = try ClientTokenIssuer(environment: variables)
        let sessions = try ClientTokenIssuer.sessions(environment: variables)
        #expect(sessions.keys.currentKeyID == TokenKeyring.keyID(of: new.publicKey) && sessions.keys.keyIDs.count == 2)
        let keyID = UUID()
        let session = try sessions.issueSession(keyID: keyID, now: now, lifetime: 900)
        #expect(try sessions.verifySession(session, now: now) == keyID)
        #expect(throws: AccessError.self) { try clientTokens.verifySession(session, now: now) }
        let byClientKey = try clientTokens.issueSession(keyID: keyID, now: now, lifetime: 900)
        #expect(throws: AccessError.self) { try sessions.verifySession(byClientKey, now: now) }
        let development = try ClientTokenIssuer.developmentSessions()
        #expect(development.isDevelopmentKey)
        #expect(development.keys.currentKeyID != (try ClientTokenIssuer.development()).keys.currentKeyID)
    }

    @Test func badKeysNameTheirVariableAndNeverTheValue() throws {
        let good = raw(new)
        let cases: [([String: String], String)] = [
            ([:], "JOURNEYS_SESSION_KEY is not set"),
            (["JOURNEYS_SESSION_KEY": "short"], "JOURNEYS_SESSION_KEY must be 32 bytes"),
            (
                ["JOURNEYS_SESSION_KEY": good, "JOURNEYS_SESSION_KEYS_PREVIOUS": "\(good),oops!"],
                "JOURNEYS_SESSION_KEYS_PREVIOUS entry 2 must be 32 bytes"
            ),
        ]
        for (variables, expected) in cases {
            let error = try #require(throws: AccessError.self) { try ClientTokenIssuer.sessions(environment: variables) }
            #expect(error.code == .invalidConfiguration && error.message.hasPrefix(expected), "\(error.message)")
            #expect(!error.message.contains(good) && !error.message.contains("oops"))
        }
        let previous = try #require(throws: AccessError.self) {
            try ClientTokenIssuer(environment: ["JOURNEYS_CLIENT_TOKEN_KEY": good, "JOURNEYS_CLIENT_TOKEN_KEYS_PREVIOUS": "x"])
        }
        #expect(previous.message.hasPrefix("JOURNEYS_CLIENT_TOKEN_KEYS_PREVIOUS entry 1"))
    }
}
