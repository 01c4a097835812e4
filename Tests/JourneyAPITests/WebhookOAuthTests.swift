import Foundation
import HumanTokenAPI
@testable import JourneyAPI
import JourneyTesting
import Testing
import UnicoEmulator

/// `UNICO_WEBHOOK_AUTH=oauth2:…`: our token endpoint issues short-lived tokens to the client
/// credentials, and the webhook accepts only those, unexpired.
@Suite struct WebhookOAuthTests {
    static let issuer = WebhookTokenIssuer(clientID: "unico", clientSecret: "s3cret", lifetime: 300)
    static let payload: [String: any Sendable] = [
        "processId": "p-unknown", "state": "PROCESS_STATE_FINISHED",
        "flow": "humantoken", "result": "ok",
    ]

    @Test func aValidTokenIsAcceptedAndAnExpiredOrForeignOneIs401() async throws {
        var options = TestStack.Options()
        options.webhookAuthentication = WebhookAuthenticator(.oauth2(Self.issuer))
        try await TestStack.with(options) { stack in
            let basic = "Basic " + Data("unico:s3cret".utf8).base64EncodedString()
            let issued = try await stack.client.send(
                "POST", "/v1/unico/oauth/token", headers: ["Authorization": basic],
                form: "grant_type=client_credentials")
            #expect(issued.status == 200)
            #expect(issued.headers["cache-control"] == "no-store")
            let token = try #require(issued["access_token"] as? String)
            #expect(issued["token_type"] as? String == "Bearer")
            #expect(issued["expires_in"] as? Int == 300)
            let accepted = try await stack.send("POST", "/v1/webhooks/unico", bearer: token, json: Self.payload)
            #expect(accepted.status == 202)
            // Form fields work as client authentication too.
            let viaForm = try await stack.client.send(
                "POST", "/v1/unico/oauth/token",
                form: "grant_type=client_credentials&client_id=unico&client_secret=s3cret")
            #expect(viaForm.status == 200)

            // A token signed under another secret, or after its lifetime, is refused.
            let foreign = WebhookTokenIssuer(clientID: "unico", clientSecret: "other").issue(now: stack.clock.read())
            let refused = try await stack.send("POST", "/v1/webhooks/unico", bearer: foreign, json: Self.payload)
            #expect(refused.status == 401)
            #expect(refused.code == "webhook_unauthorized")
            stack.clock.advance(by: 301)
            let expired = try await stack.send("POST", "/v1/webhooks/unico", bearer: token, json: Self.payload)
            #expect(expired.status == 401)
            #expect(expired.headers["content-type"] == "application/problem+json")
            #expect(expired.code == "webhook_unauthorized")
        }
    }

    @Test func aWrongSecretOrGrantGetsAProblem() async throws {
        var options = TestStack.Options()
        options.webhookAuthentication = WebhookAuthenticator(.oauth2(Self.issuer))
        try await TestStack.with(options) { stack in
            let wrong = "Basic " + Data("unico:guess".utf8).base64EncodedString()
            let refused = try await stack.client.send(
                "POST", "/v1/unico/oauth/token", headers: ["Authorization": wrong],
                form: "grant_type=client_credentials")
            #expect(refused.status == 401)
            #expect(refused.code == "invalid_client")
            #expect(refused["error"] as? String == "invalid_client")
            #expect(refused.headers["content-type"] == "application/problem+json")
            let grant = try await stack.client.send(
                "POST", "/v1/unico/oauth/token", headers: ["Authorization": wrong],
                form: "grant_type=password")
            #expect(grant.status == 400)
            #expect(grant.code == "unsupported_grant_type")
            #expect(!stack.metricsText.contains("s3cret"))
        }
        // Another mode: the endpoint does not exist.
        var bearer = TestStack.Options()
        bearer.webhookAuthentication = WebhookAuthenticator(.bearer(token: "t"))
        try await TestStack.with(bearer) { stack in
            let answer = try await stack.client.send("POST", "/v1/unico/oauth/token", form: "grant_type=client_credentials")
            #expect(answer.status == 404)
            #expect(answer.code == "webhook_oauth_disabled")
        }
    }

    @Test func theEmulatorWithAWrongSecretNeverGetsAWebhookIn() async throws {
        let emulatorAuth = UnicoEmulator.WebhookAuthentication.oauth2(
            tokenURL: "/v1/unico/oauth/token", clientID: "unico", clientSecret: "wrong")
        try await withJourneys(webhook: WebhookAuthenticator(.oauth2(Self.issuer)), emulatorAuth: emulatorAuth) { h in
            let c = try await h.capture(.approve)
            try await waitUntil("the emulator gives the webhook up") { h.emulator.webhookDeliveries().first?.outcome == .gaveUp }
            let delivery = h.emulator.webhookDeliveries().first
            #expect(delivery?.outcome == .gaveUp, "attempts: \(String(describing: delivery?.attempts))")
            #expect(h.emulator.webhookTokenFetches >= 1)
            #expect(try await h.count("WebhookReceived", c.id) == 0)
        }
    }

    @Test func parsingTheOAuth2Mode() throws {
        let secret = "Zq3xW9bT7kLm2Rp8Vn4Yc6Hd1Fg5Js0Ua:Ee7Ki9Oo3Xw"  // 32 random bytes or more, colons allowed
        let parsed = try WebhookAuthenticator(parsing: "oauth2:unico:\(secret)")
        #expect(parsed.modeName == "oauth2")
        #expect(parsed.tokenIssuer?.clientID == "unico")
        #expect(parsed.tokenIssuer?.authenticates(id: "unico", secret: secret) == true)
        #expect(throws: (any Error).self) { try WebhookAuthenticator(parsing: "oauth2:unico:") }
        // A guessable secret is refused, with a message saying what is needed (never the secret).
        #expect(throws: (any Error).self) { try WebhookAuthenticator(parsing: "oauth2:unico:se:cret") }
        #expect(WebhookAuthenticator.configured(["UNICO_WEBHOOK_AUTH": "bearer:short-token"]) == nil)
        let lifetime = try WebhookAuthenticator.fromEnvironment([
            "UNICO_WEBHOOK_AUTH": "oauth2:a:\(secret)", "UNICO_WEBHOOK_TOKEN_LIFETIME": "60",
        ])
        #expect(lifetime?.tokenIssuer?.lifetime == 60)
        #expect(throws: (any Error).self) {
            try WebhookAuthenticator.fromEnvironment([
                "UNICO_WEBHOOK_AUTH": "oauth2:a:\(secret)", "UNICO_WEBHOOK_TOKEN_LIFETIME": "x",
            ])
        }
    }
}

/// The demo's path (start, capture, callback, result) against each shape of Unico's answers.
@Suite struct ResponseShapeJourneyTests {
    @Test(arguments: UnicoEmulator.ResponseShape.allCases)
    func aJourneyCompletesWhicheverShapeUnicoAnswersIn(shape: UnicoEmulator.ResponseShape) async throws {
        try await withJourneys(shape: shape) { h in
            let c = try await h.capture(.approve)
            let callback = try await h.callbackSuccess(c)
            #expect(callback.status == 200)
            #expect(callback["status"] as? String == "completed")
            let journey = try await h.send("GET", "/v1/journeys/\(c.id)", bearer: h.reader)
            #expect(journey["outcome"] as? String == "approved")
            let opened = try await h.send("GET", "/v1/journeys/\(c.id)/human-token", bearer: h.reader, headers: h.purpose)
            #expect(opened.status == 200)
        }
    }
}
