import Foundation
import JourneyDomain
import Testing
import UnicoEmulator
import Workers

@Suite(.serialized) struct HeartbeatTests {
    @Test func theHeartbeatKeepsALongCallsLeaseSoNoOtherWorkerTakesTheItem() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(latencyMs: .init(min: 1500, max: 1500))])
        try await withWorkers(faults: faults, requestTimeout: 4) { h in
            let id = try await h.startWithoutCalling()
            h.clock.advance(by: 61)
            try await h.catchUp()
            let claimedAt = h.now()
            let first = try h.worker(WorkerService.Configuration(pollInterval: .seconds(30), leaseDuration: 30,
                                                                 heartbeatInterval: .milliseconds(50), workerID: "slow"))
            let run = Task { try await first.run() }
            func leaseUntil() async throws -> Date? {
                let rows = try await h.database.owner.query("SELECT lease_until FROM work_leases WHERE worker = 'slow'")
                return try rows.first?.decode(0, as: Date.self)
            }
            var deadline = Date().addingTimeInterval(10)
            while try await leaseUntil() == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            // Mid-call, 25 s pass: the heartbeat moves the lease to 30 s from then.
            h.clock.advance(by: 25)
            deadline = Date().addingTimeInterval(10)
            while Date() < deadline, let until = try await leaseUntil(), until < claimedAt.addingTimeInterval(55) {
                try await Task.sleep(for: .milliseconds(10))
            }
            let renewed = try #require(try await leaseUntil())
            #expect(renewed >= claimedAt.addingTimeInterval(55))
            // Past the first lease: another worker finds nothing to take.
            h.clock.advance(by: 10)
            let second = try h.worker(WorkersHarness.quick("rescuer"))
            #expect(try await second.runOnce() == 0)
            deadline = Date().addingTimeInterval(10)
            while try await h.state(id).status != .processCreated, Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            run.cancel()
            _ = try? await run.value
            #expect(try await h.state(id).status == .processCreated)
            #expect(h.emulator.processes().count == 1)
        }
    }
}
