import Foundation
import HumanTokenAPI
import JourneyDomain
import Testing
import Workers

/// `lookup: none`: no search by client reference; an intent without an answer is closed as
/// unknown once the token's lifetime has passed, and the next attempt gets a new reference.
@Suite(.serialized) struct LookupNoneTests {
    @Test func anUnansweredIntentIsClosedAsUnknownAfterTheTokenLifetime() async throws {
        try await withWorkers(lookup: .none) { h in
            let id = try await h.startWithoutCalling()
            let reference = try #require(try await h.state(id).currentAttempt?.unicoClientReference)
            let worker = try h.worker()
            h.clock.advance(by: 61)
            try await h.poll(worker)
            // Before the token's lifetime: nothing searched, nothing created, the intent stays open.
            #expect(worker.statistics.outcomes.isEmpty)
            #expect(h.emulator.processes().isEmpty)
            #expect(try await h.state(id).status == .creatingProcess)
            h.clock.advance(by: 240)
            try await h.poll(worker)
            #expect(worker.statistics.outcomes["closed_unknown"] == 1)
            #expect(h.emulator.processes().isEmpty)
            let types = try await h.eventTypes(id)
            #expect(types.contains("ProcessCreationFailed"))
            let closed = try await h.state(id)
            #expect(closed.status != .creatingProcess)
            // The retry (when the policy allows it) works under a new reference.
            h.clock.advance(by: 600)
            try await h.poll(worker)
            let next = try await h.state(id)
            if let attempt = next.currentAttempt, attempt.number > 1 {
                #expect(attempt.unicoClientReference != reference)
            }
        }
    }
}
