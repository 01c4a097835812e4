import Foundation
import JourneyDomain
import Testing

/// No approval is lost: an opened capture is asked about before it is expired, and a result
/// Unico announces after the policy gave up on the journey is still recorded.
@Suite("No approval lost: probes and late results")
struct LateResultTests {
    static let approved = Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))

    @Test func anOpenedCaptureThatFinishedIsRecordedInsteadOfExpired() throws {
        var scenario = try Scenario.captureOpened()
        #expect(scenario.state.mayProbeResult(1))
        // Neither the app's callback nor Unico's webhook arrived; Get Process says approved.
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 901)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        #expect(scenario.state.status == .completed && scenario.state.outcome == .approved)
    }

    @Test func anOpenedCaptureUnicoStillWorksOnRecordsNothingAndIsExpiredAfterwards() throws {
        var scenario = try Scenario.captureOpened()
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 901)
        #expect(events.isEmpty)
        #expect(try scenario.run(.expireToken(attempt: 1), at: 901).first?.eventType == "TokenExpired")
        // A capture that was never opened is not asked about.
        #expect(try !Scenario.tokenIssued().state.mayProbeResult(1))
    }

    @Test func anApprovalAnnouncedAfterTheJourneyWasAbandonedIsRecorded() throws {
        var scenario = try Scenario.captureOpened(policy: RetryPolicy(maximumAttempts: 1))
        // The token expires after the grace; the policy allows no second attempt: abandoned.
        _ = try scenario.run(.expireToken(attempt: 1), at: 1_000)
        #expect(scenario.state.status == .abandoned)
        #expect(scenario.state.nextDue == nil)
        // Minute 31: Unico's webhook says the process finished.
        _ = try scenario.run(.recordWebhook(WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok")),
                             at: 1_860)
        #expect(scenario.state.awaitsResult(1))
        #expect(scenario.state.nextDue?.kind == .fetchResult)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 1_861)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        let state = scenario.state
        #expect(state.status == .completed && state.outcome == .approved)
        #expect(state.abandonedAt != nil, "the abandonment stays on record")
        #expect(state.nextDue == nil)
    }

    @Test func aJourneyAbandonedOnRequestLearnsNoLateResult() throws {
        var scenario = try Scenario.abandoned()
        _ = try scenario.run(.recordWebhook(WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok")),
                             at: 60)
        #expect(!scenario.state.awaitsResult(1) && scenario.state.nextDue == nil)
        #expect(scenario.refusal(.recordResult(attempt: 1, snapshot: Self.approved), at: 61)?.code == .invalidTransition)
    }
}
