import AccessControl
import Foundation
import JourneyEngine
import HumanTokenAPI
@testable import JourneyAPI
import JourneyTesting
import Testing

/// Per-tenant Unico webhook credentials (issue 23): a tenant with its own Unico account may give
/// its account's webhook credentials of its own; a webhook presenting tenant A's touches only A's
/// journeys, and one naming another tenant's process is answered exactly as a process nobody
/// made, without a word about the journey.
@Suite(.serialized) struct TenantWebhookCredentialsTests {
    /// The service with `deployment`'s credentials and each tenant's `own`; `acme` and `globex`
    /// have their own (UAT) Unico accounts (the emulator's, under their own clients).
    struct Setup {
        var client: TestClient
        var service: APIServer
        /// Journey id and Unico process id, by tenant.
        var journeys: [String: (id: String, process: String)]
    }

    static func setUp(
        _ stack: TestStack, deployment: WebhookAuthenticator,
        own: [String: WebhookAuthenticator]
    ) async throws -> Setup {
        var dependencies = stack.dependencies
        dependencies.engine.tenantUnico = [
            "acme": [.uat: try HumanTokenAPIClient(configuration: stack.unicoConfiguration)],
            "globex": [.uat: try HumanTokenAPIClient(configuration: stack.unicoConfiguration)],
        ]
        dependencies.webhookAuthentication = deployment
        dependencies.tenantWebhookAuthentication = own
        let service = APIServer(
            configuration: .init(), journeys: Journeys(database: stack.database.app, dependencies: dependencies.engine),
            keys: APIKeyStore(client: stack.database.app), dependencies: dependencies)
        let client = TestClient(router: service.router)
        let tenants = TenantStore(client: stack.database.app)
        let keys = APIKeyStore(client: stack.database.app)
        var journeys: [String: (id: String, process: String)] = [:]
        for tenant in ["default", "acme", "globex"] {
            if tenant != "default" { _ = try await tenants.create(name: tenant) }
            let key = try await keys.create(name: tenant, scopes: [.journeysWrite], tenant: tenant).plaintext
            let started = try await client.send(
                "POST", "/v1/journeys", bearer: key,
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
                ])
            #expect(started.status == 201, "\(tenant): \(started.text)")
            let id = try #require(started["journeyId"] as? String)
            let process = try #require(
                try await stack.database.owner.query(
                    "SELECT process_id FROM process_journeys WHERE journey_id = \(id)"
                ).first?.decode(0, as: String.self))
            journeys[tenant] = (id, process)
        }
        return Setup(client: client, service: service, journeys: journeys)
    }

    static func webhooks(_ stack: TestStack, _ journeyID: String) async throws -> Int {
        try await stack.database.owner.query(
            """
            SELECT count(*)::int FROM events WHERE stream_name = \("journey-" + journeyID) AND event_type = 'WebhookReceived'
            """
        ).first?.decode(0, as: Int.self) ?? 0
    }

    static func notice(_ process: String) -> [String: Any] {
        ["processId": process, "state": "PROCESS_STATE_FINISHED", "flow": "humantoken", "result": "ok"]
    }

    @Test func aTenantsCredentialsTouchOnlyItsOwnJourneys() async throws {
        try await TestStack.with(TestStack.Options(time: .system)) { stack in
            let s = try await Self.setUp(
                stack, deployment: WebhookAuthenticator(.bearer(token: "deployment-token")),
                own: [
                    "acme": WebhookAuthenticator(.bearer(token: "acme-token")),
                    "globex": WebhookAuthenticator(.header(name: "X-Globex-Key", value: "globex-key")),
                ])
            let (acme, globex, plain) = (
                try #require(s.journeys["acme"]), try #require(s.journeys["globex"]),
                try #require(s.journeys["default"])
            )

            // acme's credentials on globex's process: the answer of a process nobody made.
            let foreign = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: "acme-token", json: Self.notice(globex.process))
            let nobody = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: "acme-token", json: Self.notice("no-such-process"))
            #expect(foreign.status == 202 && foreign.code == "unknown_process", "\(foreign.text)")
            #expect(foreign.body == nobody.body, "nothing tells a foreign process from an unknown one")
            #expect(!foreign.text.contains(globex.id) && foreign["status"] == nil)
            #expect(try await Self.webhooks(stack, globex.id) == 0, "nothing recorded on globex's journey")

            // acme's on its own process: recorded.
            let own = try await s.client.send("POST", "/v1/webhooks/unico", bearer: "acme-token", json: Self.notice(acme.process))
            #expect(own.status == 200 && own.code == "recorded" && own["journeyId"] as? String == acme.id, "\(own.text)")
            #expect(try await Self.webhooks(stack, acme.id) == 1)
            let globexOwn = try await s.client.send(
                "POST", "/v1/webhooks/unico", headers: ["X-Globex-Key": "globex-key"],
                json: Self.notice(globex.process))
            #expect(globexOwn.code == "recorded", "\(globexOwn.text)")
            let globexOnAcme = try await s.client.send(
                "POST", "/v1/webhooks/unico", headers: ["X-Globex-Key": "globex-key"],
                json: Self.notice(acme.process))
            #expect(globexOnAcme.code == "unknown_process")

            // The deployment's credentials no longer touch journeys made with a tenant's own
            // account once the tenant has credentials of its own; they still touch the rest.
            let deploymentOnAcme = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: "deployment-token",
                json: Self.notice(acme.process))
            #expect(deploymentOnAcme.code == "unknown_process", "\(deploymentOnAcme.text)")
            let deploymentOnDefault = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: "deployment-token",
                json: Self.notice(plain.process))
            #expect(deploymentOnDefault.code == "recorded" && deploymentOnDefault["journeyId"] as? String == plain.id)
            // A tenant's credentials never reach the default tenant's journeys either.
            let acmeOnDefault = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: "acme-token",
                json: Self.notice(plain.process))
            #expect(acmeOnDefault.code == "unknown_process")
            for journey in [acme, plain, globex] {
                #expect(try await Self.webhooks(stack, journey.id) == 1, "\(journey.id)")
            }

            // Wrong credentials are still a 401.
            let wrong = try await s.client.send("POST", "/v1/webhooks/unico", bearer: "guess", json: Self.notice(acme.process))
            #expect(wrong.status == 401 && wrong.code == "webhook_unauthorized")
            #expect(s.service.metrics.render().contains("outcome=\"foreign_tenant\""))
        }
    }

    @Test func aTenantsOAuthTokenIsItsOwnAndTouchesOnlyItsJourneys() async throws {
        try await TestStack.with(TestStack.Options(time: .system)) { stack in
            let s = try await Self.setUp(
                stack,
                deployment: WebhookAuthenticator(
                    .oauth2(WebhookTokenIssuer(clientID: "unico", clientSecret: "deployment-secret"))),
                own: [
                    "acme": WebhookAuthenticator(.oauth2(WebhookTokenIssuer(clientID: "acme-unico", clientSecret: "acme-secret")))
                ])
            let (acme, globex) = (try #require(s.journeys["acme"]), try #require(s.journeys["globex"]))
            func token(_ id: String, _ secret: String) async throws -> TestResponse {
                try await s.client.send(
                    "POST", "/v1/unico/oauth/token",
                    headers: [
                        "Authorization": "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
                    ], form: "grant_type=client_credentials")
            }
            let acmeToken = try #require(try await token("acme-unico", "acme-secret")["access_token"] as? String)
            let deploymentToken = try #require(try await token("unico", "deployment-secret")["access_token"] as? String)
            #expect(try await token("acme-unico", "deployment-secret").code == "invalid_client", "a secret is its own client's")

            let onGlobex = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: acmeToken, json: Self.notice(globex.process))
            #expect(onGlobex.status == 202 && onGlobex.code == "unknown_process", "\(onGlobex.text)")
            let onAcme = try await s.client.send("POST", "/v1/webhooks/unico", bearer: acmeToken, json: Self.notice(acme.process))
            #expect(onAcme.code == "recorded", "\(onAcme.text)")
            // globex has no credentials of its own: the deployment's touch its journeys, not acme's.
            let deploymentOnGlobex = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: deploymentToken,
                json: Self.notice(globex.process))
            #expect(deploymentOnGlobex.code == "recorded", "\(deploymentOnGlobex.text)")
            let deploymentOnAcme = try await s.client.send(
                "POST", "/v1/webhooks/unico", bearer: deploymentToken,
                json: Self.notice(acme.process))
            #expect(deploymentOnAcme.code == "unknown_process")
            for journey in [acme, globex] {
                #expect(try await Self.webhooks(stack, journey.id) == 1, "\(journey.id)")
            }
        }
    }
}
