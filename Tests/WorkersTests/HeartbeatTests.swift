import Foundation
import JourneyDomain
import JourneyTesting
import Testing
import UnicoEmulator
import Workers

@Suite(.serialized) struct HeartbeatTests {
    @Test func theHeartbeatKeepsALongCallsLeaseSoNoOtherWorkerTakesTheItem() async throws {
        // The emulator holds Create Process until the test lets it go: the call is in flight for
        // every step below however slow the machine (the request timeout, under the lease, bounds a hang).
        try await withWorkers(requestTimeout: 25) { h in
            let holds = h.emulator.faultPlan.holds
            holds.hold(.createProcess)
            defer { holds.release(.createProcess) }
            let id = try await h.startWithoutCalling()
            h.clock.advance(by: 61)
            try await h.catchUp()
            let claimedAt = h.now()
            let first = try h.worker(
                WorkerService.Configuration(
                    pollInterval: .seconds(30), leaseDuration: 30,
                    heartbeatInterval: .milliseconds(50), workerID: "slow"))
            let run = Task { try await first.run() }
            func leaseUntil() async throws -> Date? {
                let rows = try await h.database.owner.query("SELECT lease_until FROM work_leases WHERE worker = 'slow'")
                return try rows.first?.decode(0, as: Date.self)
            }
            try await waitUntil("the slow worker's call reaches Unico") { holds.waiting(.createProcess) == 1 }
            #expect(try await leaseUntil() != nil)
            // Mid-call, 25 s pass: the heartbeat moves the lease to 30 s from then.
            h.clock.advance(by: 25)
            try await waitUntil("the heartbeat renews the lease") {
                try await leaseUntil().map { $0 >= claimedAt.addingTimeInterval(55) } ?? false
            }
            // Past the first lease: another worker finds nothing to take.
            h.clock.advance(by: 10)
            let second = try h.worker(WorkersHarness.quick("rescuer"))
            #expect(try await second.runOnce() == 0)
            holds.release(.createProcess)
            try await waitUntil("the held call is recorded") { try await h.state(id).status == .processCreated }
            run.cancel()
            _ = try? await run.value
            #expect(h.emulator.processes().count == 1)
        }
    }
}
