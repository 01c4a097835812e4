import Foundation
import JourneyDomain
import Testing
import UnicoEmulator
import Workers

@Suite(.serialized) struct FaultScriptTests {
    @Test func withUnico429sAnd5xxEveryJourneyThatCanFinishDoes() async throws {
        let faults = FaultScript(routes: [
            FaultScript.Route.createProcess.rawValue: .init(serverErrorRate: 0.25, rateLimitRate: 0.2, retryAfterSeconds: 1),
            FaultScript.Route.getProcess.rawValue: .init(serverErrorRate: 0.3, rateLimitRate: 0.1, retryAfterSeconds: 1),
        ])
        let policy = RetryPolicy(
            initialInterval: 2, backoffCoefficient: 2, maximumInterval: 20, maximumAttempts: 30,
            jitterFraction: 0.2)
        try await withWorkers(faults: faults, policy: policy) { h in
            var starts: [Int] = []
            for _ in 0..<6 { starts.append(try await h.start().status) }
            #expect(starts.contains { $0 != 201 })
            let ids = try await h.journeyIDs()
            #expect(ids.count == 6)
            let worker = try h.worker()
            var captured: Set<JourneyID> = []
            for _ in 0..<150 {
                var open = 0
                for id in ids {
                    let state = try await h.state(id)
                    if state.status.isTerminal { continue }
                    open += 1
                    // The app opens a capture with a live token, or asks for a new one once a retry is
                    // allowed (the token request creates the attempt's process).
                    let live =
                        state.status.hasOutstandingToken
                        && (state.currentAttempt?.tokenRemaining(at: h.now()) ?? 0) > 60
                    if live || state.status == .retryAvailable, !captured.contains(id), try await h.capture(id) {
                        captured.insert(id)
                    }
                }
                if open == 0 { break }
                try await h.poll(worker)
                h.clock.advance(by: 5)
            }
            for id in ids {
                let state = try await h.state(id)
                #expect(state.status == .completed)
                #expect(state.outcome == .approved)
            }
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
            // SDK journeys: the workers allow retries; the app's token requests create the processes.
            #expect(worker.statistics.outcomes["retry_allowed", default: 0] > 0)
        }
    }
}
