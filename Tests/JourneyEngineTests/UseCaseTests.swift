import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Testing

/// The journey's use cases at the engine, without HTTP: a token per capture, a failed attempt
/// and the fresh process of the next, the token's expiry, and a subject's erasure.
@Suite struct UseCaseTests {
    static func started(_ stack: TestStack) async throws -> (Journeys, JourneyID) {
        let journeys = StartTests.journeys(stack)
        let valid = try SharedUnicoAccountTests.start.validated()
        let result = try await journeys.start(valid, actor: "test", processAtStart: false, key: StartTests.key(UUID().uuidString))
        let started = try #require(
            { if case .awaitingToken(let started) = result.answer { started } else { nil } }(), "\(result.answer)")
        return (journeys, started.journeyID)
    }

    @Test func aTokenIsOneProcessHandedOutAgainUntilItsCaptureOpens() async throws {
        try await TestStack.with { stack in
            let (journeys, id) = try await Self.started(stack)
            let first = try await journeys.issueToken(id, actor: "app").result.get()
            let again = try await journeys.issueToken(id, actor: "app").result.get()
            #expect(first == again && first.attempt == 1)
            #expect(stack.emulator.processes().count == 1)
            #expect(try await journeys.state(of: id).status == .tokenIssued)
            let opened = try await journeys.recordCaptureOpened(id, attempt: 1)
            #expect(opened.status == .captureOpened)
        }
    }

    @Test func aFailedAttemptIsRetriedWithAFreshProcessRightBeforeTheNextCapture() async throws {
        try await TestStack.with { stack in
            let (journeys, id) = try await Self.started(stack)
            let first = try await journeys.issueToken(id, actor: "app").result.get()
            _ = try await journeys.recordCaptureOpened(id, attempt: 1)
            let failed = try await journeys.recordCallback(id, attempt: 1, outcome: .error(code: .authenticationFailed))
            #expect(failed.status == .retryScheduled)
            stack.clock.advance(by: 120)
            // The worker allows the retry; the SDK journey's process waits for the app's request.
            guard case .allowed = try await journeys.retry(id, afterAttempt: 1) else {
                Issue.record("the retry was not allowed")
                return
            }
            #expect(stack.emulator.processes().count == 1)
            let second = try await journeys.issueToken(id, actor: "app").result.get()
            #expect(second.attempt == 2 && second.webAppToken != first.webAppToken)
            #expect(stack.emulator.processes().count == 2)
        }
    }

    @Test func anUnusedTokenExpiresAfterItsFiveMinutesAndNotBefore() async throws {
        try await TestStack.with { stack in
            let (journeys, id) = try await Self.started(stack)
            _ = try await journeys.issueToken(id, actor: "app")
            let early = await captureError { try await journeys.expireToken(id, attempt: 1) }
            #expect(early is DomainError, "\(String(describing: early))")
            stack.clock.advance(by: 301)
            let expired = try await journeys.expireToken(id, attempt: 1)
            #expect(expired.events.map(\.eventType) == ["TokenExpired", "AttemptFailed"])
            #expect(expired.state.status == .retryScheduled)
        }
    }

    @Test func anErasedSubjectsActiveJourneyIsAbandonedAndMarkedOnce() async throws {
        try await TestStack.with { stack in
            let (journeys, id) = try await Self.started(stack)
            _ = try await journeys.issueToken(id, actor: "app")
            let erasure = SubjectErasure(requestedBy: "api-key:test", reason: "LGPD request", erasedAt: stack.clock.now())
            #expect(try await journeys.recordSubjectErased(id, erasure: erasure, actor: "api-key:test"))
            let state = try await journeys.state(of: id)
            #expect(state.status == .abandoned && state.subjectErasedAt != nil)
            #expect(!(try await journeys.recordSubjectErased(id, erasure: erasure, actor: "api-key:test")))
            let unknown = await captureError {
                try await journeys.recordSubjectErased(JourneyID("nobody"), erasure: erasure, actor: "api-key:test")
            }
            #expect((unknown as? EngineError)?.code == .journeyNotFound)
        }
    }
}
