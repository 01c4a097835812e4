import Foundation
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct DatabaseVariableTests {
    @Test func aBadListenURLIsAnErrorNamingTheVariableWithoutThePassword() async throws {
        let result = await journeys(
            ["report", "funnel", "--from", "2026-01-01", "--to", "2026-01-31"],
            extra: [
                "DATABASE_URL": "postgresql://journeys_app:secret@127.0.0.1:1/journeys",
                "DATABASE_LISTEN_URL": "postgresql://journeys_app:secret@[bad",
            ])
        #expect(result.code != 0)
        #expect(result.error.contains("DATABASE_LISTEN_URL"))
        #expect(!result.error.contains("secret"))
    }

    @Test func aBadPreparedStatementsSettingNamesTheVariable() async throws {
        let result = await journeys(
            ["report", "funnel", "--from", "2026-01-01", "--to", "2026-01-31"],
            extra: [
                "DATABASE_URL": "postgresql://journeys_app:secret@127.0.0.1:1/journeys",
                "DATABASE_PREPARED_STATEMENTS": "sometimes",
            ])
        #expect(result.code != 0)
        #expect(result.error.contains("DATABASE_PREPARED_STATEMENTS"))
        #expect(!result.error.contains("secret"))
    }
}
