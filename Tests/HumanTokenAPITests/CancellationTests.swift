import Foundation
import Testing
import UnicoEmulator
@testable import HumanTokenAPI

/// A caller that gives up mid-request gets control back promptly, and the client stays usable.
@Suite("Cancellation against the emulator")
struct CancellationTests {
    @Test func cancellingAWaitingCallReturnsPromptly() async throws {
        let faults = FaultScript(routes: ["getProcess": .init(latencyMs: .init(3_000))])
        try await withEmulator(faults: faults) { unico in
            let client = try unico.client(unico.configuration(requestTimeout: 5))
            let created = try await client.createProcess(Samples.minimalRequest())
            let call = Task { try await client.getProcess(created.id) }
            try await Task.sleep(for: .milliseconds(300))
            let start = ContinuousClock.now
            call.cancel()
            let outcome = await call.result
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(throws: CancellationError.self) { try outcome.get() }
            #expect(try await client.createProcess(Samples.minimalRequest()).id.isEmpty == false)
        }
    }
}
