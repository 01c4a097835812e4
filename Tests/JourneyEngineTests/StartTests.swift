import Cryptography
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Testing

/// The start use case at the engine: one journey per idempotency key, whichever service of the
/// deployment gets the request, and the key's outcome replayed as it was first answered.
@Suite struct StartTests {
    static func journeys(_ stack: TestStack) -> Journeys {
        Journeys(database: stack.database.app, dependencies: stack.dependencies.engine)
    }

    static func key(_ name: String, body: String = "body") -> IdempotencyKey {
        IdempotencyKey(scope: scope, key: name, requestHash: SHA256.hash(Data(body.utf8)))
    }

    static let scope = UUID()

    static func journeyCount(_ stack: TestStack) async throws -> Int {
        try await stack.database.app.query(
            "SELECT count(DISTINCT stream_name)::int FROM events WHERE stream_name LIKE 'journey-%'"
        )
        .first?.decode(0, as: Int.self) ?? 0
    }

    @Test func aDefaultStartIsAnsweredOnceAndReplayedWithTheSameAnswer() async throws {
        try await TestStack.with { stack in
            let journeys = Self.journeys(stack)
            let valid = try SharedUnicoAccountTests.start.validated()
            let first = try await journeys.start(valid, actor: "test", processAtStart: false, key: Self.key("default"))
            guard case .awaitingToken(let started) = first.answer else {
                Issue.record("not awaiting a token: \(first.answer)")
                return
            }
            #expect(!first.replayed)
            let again = try await journeys.start(valid, actor: "test", processAtStart: false, key: Self.key("default"))
            guard case .awaitingToken(let replayed) = again.answer else {
                Issue.record("not the stored answer: \(again.answer)")
                return
            }
            #expect(again.replayed && replayed == started && again.answerID == first.answerID)
            #expect(try await Self.journeyCount(stack) == 1)
            #expect(stack.emulator.processes().isEmpty)  // no Unico call before the app asks for a token
        }
    }

    @Test func twoServicesStartingWithOneKeyMakeOneJourneyAndOneProcess() async throws {
        try await TestStack.with { stack in
            let services = [Self.journeys(stack), Self.journeys(stack)]
            let valid = try SharedUnicoAccountTests.start.validated()
            let results = try await withThrowingTaskGroup(of: StartResult.self) { group in
                for service in services {
                    group.addTask { try await service.start(valid, actor: "test", key: Self.key("shared")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let tokens = results.compactMap { result -> String? in
                guard case .attempt(let outcome, _) = result.answer else { return nil }
                return try? outcome.result.get().webAppToken
            }
            #expect(tokens.count == 2 && Set(tokens).count == 1)
            #expect(results.filter(\.replayed).count == 1)
            #expect(Set(results.map(\.answerID)).count == 1)
            #expect(try await Self.journeyCount(stack) == 1)
            #expect(stack.emulator.processes().count == 1)
        }
    }

    @Test func aKeyUsedWithAnotherBodyIsRefusedAndStartsNothing() async throws {
        try await TestStack.with { stack in
            let journeys = Self.journeys(stack)
            let valid = try SharedUnicoAccountTests.start.validated()
            _ = try await journeys.start(valid, actor: "test", processAtStart: false, key: Self.key("reused"))
            let refused = await captureError {
                try await journeys.start(valid, actor: "test", processAtStart: false, key: Self.key("reused", body: "other"))
            }
            #expect((refused as? EngineError)?.code == .idempotencyKeyReused)
            #expect(try await Self.journeyCount(stack) == 1)
            #expect(try await journeys.replayStart(Self.key("never-used"), actor: "test") == nil)
        }
    }
}
