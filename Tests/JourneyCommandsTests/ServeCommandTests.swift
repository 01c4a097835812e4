import Foundation
import JourneyApp
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct ServeCommandTests {
    /// Outside the embedded default, serve refuses to start without its secrets, naming what is missing.
    @Test func serveNamesTheMissingSetting() async throws {
        try await TestDatabase.with { db in
            let noUnico = await journeys(["serve", "--port", "0"], database: db)
            #expect(noUnico.code == 64)
            #expect(noUnico.error.contains("UNICO_UAT_SERVICE_ACCOUNT"))

            let unico = [
                "UNICO_UAT_SERVICE_ACCOUNT": "journeys", "UNICO_UAT_TENANT": "t",
                "UNICO_UAT_PRIVATE_KEY_FILE": "/nonexistent/key.pem",
            ]
            let badKey = await journeys(["serve", "--port", "0"], database: db, extra: unico)
            #expect(badKey.code != 0)
            #expect(badKey.error.contains("UNICO_UAT_PRIVATE_KEY_FILE"))
            #expect(!badKey.error.contains("BEGIN"))

            let noFile = await journeys(["serve", "--port", "0", "--unico-config", "/nonexistent/unico.json"], database: db)
            #expect(noFile.code == 64)
            #expect(noFile.error.contains("/nonexistent/unico.json"))
        }
    }

    /// Dashboard sessions have their own key: required outside the embedded cluster, named when missing.
    @Test func dashboardSessionsNeedTheirOwnKeyOutsideTheEmbeddedCluster() async throws {
        try await TestDatabase.with { db in
            let database = try await Database.open(DatabaseSettings(url: db.appURL, adminURL: db.ownerURL), poolSize: 1)
            defer { database.close() }
            let missing = try #require(throws: AppError.self) { try Wiring.sessionTokens([:], database: database) }
            #expect(missing.code == .invalidInput && missing.message.hasPrefix("JOURNEYS_SESSION_KEY is not set"))
            let sessions = try Wiring.sessionTokens(
                ["JOURNEYS_SESSION_KEY": String(repeating: "A", count: 43)], database: database)
            #expect(!sessions.isDevelopmentKey)
        }
    }
}
