import AccessControl
import Foundation
import JourneyAPI
import JourneyApp
import JourneyEngine
import JourneyTesting
import Postgres
import Testing
import Workers

/// The production assembly: `TestStack` runs the `JourneyApp` that `serve` builds (with the
/// emulator's Unico settings), so these tests run what a deployment runs.
@Suite struct CompositionRootTests {
    /// A start and the app's token through the router `JourneyApp` built, and one event store,
    /// one engine and one key store shared by the route groups, the workers and retention.
    @Test func theAppServesAStartAndATokenWithOneEngineAndOneKeyStore() async throws {
        try await TestStack.with { stack in
            let started = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess",
                    "clientReference": "order-1",
                ])
            #expect(started.status == 201)
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let token = try await stack.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            #expect(token.status == 200)
            #expect(token["webAppToken"] is String)

            let app = stack.app
            #expect(app.server.journeys.events === app.events)
            #expect(app.journeys.events === app.events)
            #expect(try stack.worker(.init(workerID: "shared")).performer.journeys.events === app.events)
            #expect(try app.retention(projector: stack.database.projector).subjects.journeys.events === app.events)
            #expect(app.server.keys.sharesVerifiedKeys(with: app.keys))
        }
    }

    /// One verified-key cache per process: a key revoked through the app's store stops at once on
    /// every route group (four caches would each trust it for up to 5 s more).
    @Test func aKeyRevokedThroughTheAppStopsOnEveryRouteGroupAtOnce() async throws {
        try await TestStack.with { stack in
            let created = try await stack.app.keys.create(
                name: "operator", scopes: [.journeysRead, .reportsRead, .subjectsAdmin, .webhooksAdmin])
            let key = created.plaintext
            let routes = [
                ("GET", "/v1/journeys"), ("GET", "/v1/reports/sla"), ("GET", "/v1/webhook-endpoints"),
                ("POST", "/v1/subjects/find"),
            ]
            for (method, path) in routes {
                let answer = try await stack.send(
                    method, path, bearer: key, json: method == "POST" ? ["document": "12345678909"] : nil)
                #expect(answer.status != 401, "\(method) \(path) before the revoke")
            }
            try await stack.app.keys.revoke(created.key.id.uuidString)
            for (method, path) in routes {
                let answer = try await stack.send(
                    method, path, bearer: key, json: method == "POST" ? ["document": "12345678909"] : nil)
                #expect(answer.status == 401, "\(method) \(path) after the revoke")
            }
        }
    }

    /// The configuration is read once, and a bad value names its variable.
    @Test func aBadSettingIsRefusedNamingItsVariable() throws {
        let lag = try #require(throws: AppError.self) { try AppConfiguration(["REPORTS_MAX_LAG": "soon"]) }
        #expect(lag.code == .invalidInput && lag.message.contains("REPORTS_MAX_LAG"))
        let configuration = try AppConfiguration(["REPORTS_MAX_LAG": "0", "JOURNEYS_METRICS_TOKEN": "t"])
        #expect(configuration.server.reportsMaxLag == nil)
        #expect(configuration.server.metricsToken == "t")
    }

    /// Off the embedded database, a missing key is refused naming it, as `serve` always did.
    @Test func offTheEmbeddedDatabaseAMissingKeyIsNamed() async throws {
        try await TestDatabase.with { db in
            let database = Database(app: db.app, admin: db.app, embedded: nil)
            var configuration = AppConfiguration()
            configuration.unico = [:]
            configuration.tenantUnico = [:]
            let noUnico = try #require(throws: AppError.self) { try JourneyApp(configuration, database: database) }
            #expect(noUnico.message.contains("UNICO_UAT_SERVICE_ACCOUNT"))
        }
    }

    /// `serve` needs the dashboard's session key off the embedded database; `work` serves no
    /// dashboard and needs none.
    @Test func workNeedsNoSessionKeyButServeDoes() async throws {
        try await TestStack.with { stack in
            let database = Database(app: stack.database.app, admin: stack.database.app, embedded: nil)
            var configuration = AppConfiguration()
            configuration.unico = [.uat: stack.unicoConfiguration]
            configuration.privacy = .development()
            configuration.clientTokens = try .development()
            let serve = try #require(throws: AppError.self) { try JourneyApp(configuration, database: database) }
            #expect(serve.code == .invalidInput && serve.message.hasPrefix("JOURNEYS_SESSION_KEY is not set"))
            configuration.servesAPI = false
            configuration.workers = WorkerService.Configuration(workerID: "work")
            let work = try JourneyApp(configuration, database: database)
            #expect(work.worker?.performer.journeys.events === work.events)
        }
    }
}
