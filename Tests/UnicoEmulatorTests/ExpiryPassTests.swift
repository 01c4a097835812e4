import Foundation
import Testing
import UnicoEmulator

/// The expiry pass skips its scan until the earliest pending expiry: a process created later
/// with a shorter lifetime still expires on time, and a longer-lived one waits for its own.
@Suite("Process expiry pass")
struct ExpiryPassTests {
    @Test func expiresEachProcessAtItsOwnTimeWhateverTheCreationOrder() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            var long = Fixture.validBody
            long["expiresIn"] = "1000s"
            let first = try #require(try await fixture.createProcess(token: token, long)["id"] as? String)
            fixture.clock.advance(by: 100)
            #expect(fixture.emulator.processes().allSatisfy { $0.state == .created })
            var short = Fixture.validBody
            short["expiresIn"] = "10s"
            let second = try #require(try await fixture.createProcess(token: token, short)["id"] as? String)
            fixture.clock.advance(by: 9)
            #expect(fixture.emulator.processes().allSatisfy { $0.state == .created })
            fixture.clock.advance(by: 2)
            var byID = Dictionary(uniqueKeysWithValues: fixture.emulator.processes().map { ($0.id, $0) })
            #expect(byID[second]?.result == .expired)
            #expect(byID[first]?.state == .created)
            fixture.clock.advance(by: 900)
            byID = Dictionary(uniqueKeysWithValues: fixture.emulator.processes().map { ($0.id, $0) })
            #expect(byID[first]?.result == .expired)
        }
    }
}
