import Foundation
import HumanTokenAPI
import JourneyDomain
import JourneyTesting
import Testing
import UnicoEmulator
import Workers

@Suite(.serialized) struct ReconcileTests {
    @Test func anIntentWithoutAnswerIsLookedUpBeforeAnythingIsCreated() async throws {
        try await withWorkers { h in
            // Two crashes right after the intent: one before Unico heard of it, one after it created the process.
            let unheard = try await h.startWithoutCalling()
            let created = try await h.startWithoutCalling()
            let reference = try #require(try await h.state(created).currentAttempt?.unicoClientReference)
            let unico = try #require(h.dependencies.unico[.uat])
            let existing = try await unico.createProcess(
                CreateProcessRequest(
                    flow: "humantoken", purpose: .creditProcess, person: ProcessPerson(duiValue: "12345678909"),
                    clientReference: reference))
            let worker = try h.worker()

            // Not before the grace period of an intent.
            h.clock.advance(by: 30)
            #expect(try await h.poll(worker) == 0)
            h.clock.advance(by: 31)
            #expect(try await h.poll(worker) == 2)

            #expect(try await h.state(unheard).status == .processCreated)
            let adopted = try await h.state(created)
            #expect(adopted.status == .processCreated)
            #expect(adopted.currentAttempt?.processID == ProcessID(existing.id))
            #expect(worker.statistics.outcomes == ["process_created": 1, "adopted": 1])
            #expect(h.emulator.processes().count == 2)
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
            // The adopted process's token is handed out like any other.
            let token = try await h.send("POST", "/v1/journeys/\(created.rawValue)/token")
            #expect(token["webAppToken"] as? String != nil)
        }
    }

    @Test func aCreateProcessThatTimedOutLeavesTheIntentOpenAndIsAdoptedLater() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(latencyMs: .init(min: 1500, max: 1500))]
        )
        try await withWorkers(faults: faults, requestTimeout: 1) { h in
            let answer = try await h.start()
            #expect(answer.status >= 500)
            let id = try #require(try await h.journeyIDs().first)
            #expect(try await h.state(id).status == .creatingProcess)
            #expect(try await h.eventTypes(id).contains("ProcessCreationFailed") == false)
            // Unico created the process after all (the answer came too late): adopted, not created again.
            try await waitUntil("Unico creates the process after all") { !h.emulator.processes().isEmpty }
            let worker = try h.worker()
            h.clock.advance(by: 61)
            try await h.poll(worker)
            #expect(try await h.state(id).status == .processCreated)
            #expect(worker.statistics.outcomes == ["adopted": 1])
            #expect(h.emulator.processes().count == 1)
        }
    }

    @Test func aWorkerCancelledMidCallLosesNothingAndTheNextOneCreatesNoSecondProcess() async throws {
        try await withWorkers(requestTimeout: 20) { h in
            var ids: [JourneyID] = []
            for _ in 0..<6 { ids.append(try await h.startWithoutCalling()) }
            h.clock.advance(by: 61)
            try await h.catchUp()
            let holds = h.emulator.faultPlan.holds
            holds.hold(.createProcess)
            let first = try h.worker(WorkersHarness.quick("first"))
            let run = Task { try await first.run() }
            // Cancel once the first worker holds its claims and its calls (four at once) wait at Unico.
            try await waitUntil("the first worker's calls wait at Unico") {
                first.statistics.claimed == ids.count && holds.waiting(.createProcess) == first.configuration.concurrency
            }
            run.cancel()
            _ = try? await run.value
            // The calls cut short still land at Unico: each creates its process.
            let cutShort = holds.waiting(.createProcess)
            holds.release(.createProcess)
            try await waitUntil("the cut-short calls land at Unico") { h.emulator.processes().count == cutShort }

            // The first worker's leases run out (30 s); a new worker finishes the work.
            h.clock.advance(by: 31)
            let second = try h.worker(WorkersHarness.quick("second"))
            for _ in 0..<20 {
                var open = 0
                for id in ids where try await h.state(id).status == .creatingProcess { open += 1 }
                if open == 0 { break }
                try await h.poll(second)
                h.clock.advance(by: 10)
            }
            // Each intent ended exactly once: created by a worker, or adopted after a cut-short call.
            var ended = 0
            for outcomes in [first.statistics.outcomes, second.statistics.outcomes] {
                ended += outcomes["process_created", default: 0] + outcomes["adopted", default: 0]
            }
            #expect(ended == ids.count)
            for id in ids { #expect(try await h.state(id).status == .processCreated) }
            #expect(h.emulator.processes().count == ids.count)
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
        }
    }

    @Test func aUnicoTimeoutLongerThanTheLeaseIsRefused() async throws {
        try await withWorkers(requestTimeout: 45) { h in
            let error = try #require(throws: WorkerError.self) {
                try h.worker(WorkerService.Configuration(leaseDuration: 30, workerID: "slow"))
            }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("leaseDuration"))
            #expect(throws: Never.self) { try h.worker(WorkerService.Configuration(leaseDuration: 50, workerID: "ok")) }
        }
    }
}
