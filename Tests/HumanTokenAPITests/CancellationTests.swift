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

    /// 200 calls, each cancelled while the server holds it (or before it was sent): every one ends
    /// in `CancellationError` long before the 30 s request timeout, and none wedges FoundationNetworking
    /// (a cancel that deadlocked would hang this loop; one that was not prompt would end in `timeout`).
    @Test func cancellingMidRequestManyTimesNeverWedges() async throws {
        let unico = HeldUnico()
        try unico.server.start()
        defer { unico.release() }
        let client = try unico.client(requestTimeout: 30)
        var arrivals = unico.arrivals.makeAsyncIterator()
        var outcomes: [String: Int] = [:]
        for round in 0..<200 {
            let id = "p-\(round)"
            let call = Task { try await client.getProcess(id) }
            if round % 4 != 3 {
                while let arrived = await arrivals.next(), arrived != id {}
            }
            call.cancel()
            switch await call.result {
            case .failure(is CancellationError): outcomes["cancelled", default: 0] += 1
            case .failure(let error): outcomes["\(error)", default: 0] += 1
            case .success: outcomes["answered", default: 0] += 1
            }
            if outcomes["cancelled"] != round + 1 { break }
        }
        #expect(outcomes == ["cancelled": 200])
        unico.release()
        #expect(try await client.getProcess("after").id == "after")
        await unico.server.shutdown()
    }
}
