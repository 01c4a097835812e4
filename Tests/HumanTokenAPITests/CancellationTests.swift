import Foundation
import JourneyTesting
import Testing
import UnicoEmulator
@testable import HumanTokenAPI

/// A caller that gives up mid-request gets control back promptly, and the client stays usable.
@Suite("Cancellation against the emulator")
struct CancellationTests {
    @Test func cancellingAWaitingCallReturnsPromptly() async throws {
        try await withEmulator { unico in
            let client = try unico.client(unico.configuration(requestTimeout: 5))
            let created = try await client.createProcess(Samples.minimalRequest())
            let holds = unico.emulator.faultPlan.holds
            holds.hold(.getProcess)
            defer { holds.release(.getProcess) }
            let call = Task { try await client.getProcess(created.id) }
            try await waitUntil("the emulator holds the call") { holds.waiting(.getProcess) == 1 }
            let start = ContinuousClock.now
            call.cancel()
            let outcome = await call.result
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(throws: CancellationError.self) { try outcome.get() }
            #expect(try await client.createProcess(Samples.minimalRequest()).id.isEmpty == false)
        }
    }

    /// 200 calls cancelled while the server holds them, while their answer arrives, or before they
    /// were sent: each ends in `CancellationError` (or, when the answer won the race, its result)
    /// long before the 30 s request timeout, and none wedges the client (a cancel that
    /// deadlocked would hang this loop; one that was not prompt would end in `timeout`).
    @Test func cancellingMidRequestManyTimesNeverWedges() async throws {
        let unico = HeldUnico()
        try unico.server.start()
        defer { unico.release() }
        let client = try unico.client(requestTimeout: 30)
        var arrivals = unico.arrivals.makeAsyncIterator()
        var outcomes: [String: Int] = [:]
        let started = ContinuousClock.now
        for round in 0..<200 {
            let racing = round % 4 == 2
            let id = racing ? "race-\(round)" : "p-\(round)"
            let call = Task { try await client.getProcess(id) }
            if round % 4 != 3 {
                while let arrived = await arrivals.next(), arrived != id {}
            }
            call.cancel()
            switch await call.result {
            case .failure(is CancellationError): outcomes["cancelled", default: 0] += 1
            case .success where racing: outcomes["answered first", default: 0] += 1
            case .success: outcomes["answered while held", default: 0] += 1
            case .failure(let error): outcomes["\(error)", default: 0] += 1
            }
            if outcomes["cancelled", default: 0] + outcomes["answered first", default: 0] != round + 1 { break }
        }
        let elapsed = ContinuousClock.now - started
        #expect(outcomes["cancelled", default: 0] + outcomes["answered first", default: 0] == 200, "\(outcomes)")
        #expect(outcomes["cancelled", default: 0] >= 150, "\(outcomes)")
        print("200 cancellations in \(elapsed): \(outcomes)")
        unico.release()
        #expect(try await client.getProcess("after").id == "after")
        await unico.server.shutdown()
    }
}
