import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Testing

/// Unico's webhook and the app's callback as engine use cases: recorded, then the result
/// fetched, a fetch failure reported and never thrown.
@Suite struct NoticesTests {
    static func started(_ stack: TestStack) async throws -> (Journeys, JourneyID, ProcessID) {
        let journeys = Journeys(database: stack.database.app, dependencies: stack.dependencies.engine)
        let result = try await journeys.start(try SharedUnicoAccountTests.start.validated(), actor: "test")
        guard case .attempt(let outcome, _) = result.answer else { throw CancellationError() }
        let state = try await journeys.state(of: outcome.journeyID)
        let process = try #require(state.currentAttempt?.processID)
        return (journeys, outcome.journeyID, process)
    }

    static func types(_ journeys: Journeys, _ id: JourneyID) async throws -> [String] {
        try await EventStore(client: journeys.database).readStream(StreamName.journey(id.rawValue)).map(\.type)
    }

    @Test func aWebhookIsRecordedOnItsJourneyThenTheResultIsFetched() async throws {
        try await TestStack.with { stack in
            let (journeys, id, process) = try await Self.started(stack)
            let outcome = try await journeys.receiveWebhook(WebhookNotice(processID: process, state: "FINISHED"), flow: nil)
            guard case .recorded(let recorded, _, let fetch) = outcome else {
                Issue.record("not recorded: \(outcome)")
                return
            }
            #expect(recorded == id)
            if case .failed(let error) = fetch { Issue.record("the fetch failed: \(error)") }
            #expect(try await Self.types(journeys, id).contains("WebhookReceived"))
        }
    }

    @Test func aWebhookAboutAnUnknownProcessOrAnotherTenantsJourneyRecordsNothingOnAJourney() async throws {
        try await TestStack.with { stack in
            let (journeys, id, process) = try await Self.started(stack)
            let unknown = try await journeys.receiveWebhook(
                WebhookNotice(processID: ProcessID("no-such"), state: "FINISHED"), flow: nil)
            guard case .unknownProcess = unknown else {
                Issue.record("not unknown: \(unknown)")
                return
            }
            let unmatched = try await EventStore(client: journeys.database).readStream(Journeys.unmatchedWebhooks)
            #expect(unmatched.map(\.type) == ["UnmatchedWebhookReceived"])

            let refused = try await journeys.receiveWebhook(
                WebhookNotice(processID: process, state: "FINISHED"), flow: nil, may: { tenant, _ in tenant == "acme" })
            guard case .foreignTenant(let foreign) = refused else {
                Issue.record("not refused: \(refused)")
                return
            }
            #expect(foreign == id)
            #expect(try await !Self.types(journeys, id).contains("WebhookReceived"))
        }
    }

    @Test func aCallbackWithNoAttemptAwaitingItsResultFetchesNothing() async throws {
        try await TestStack.with { stack in
            let (journeys, id, _) = try await Self.started(stack)
            let state = try await journeys.state(of: id)
            let (after, fetch) = try await journeys.fetchAfterCallback(id, state: state)
            guard case .skipped = fetch else {
                Issue.record("fetched: \(fetch)")
                return
            }
            #expect(after == state)
        }
    }
}
