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
        let policy = RetryPolicy(initialInterval: 2, backoffCoefficient: 2, maximumInterval: 20, maximumAttempts: 30,
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
                    if state.status.hasOutstandingToken, !captured.contains(id),
                       let remaining = state.currentAttempt?.tokenRemaining(at: h.now()), remaining > 60,
                       try await h.capture(id) {
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
            #expect(worker.statistics.outcomes["process_created", default: 0] > 0)
        }
    }
}
