import Foundation
import HumanTokenAPI
import JourneyDomain
@testable import JourneyEngine
import JourneyTesting
import Postgres
import Synchronization
import Testing

/// The start's idempotency keys at the engine: a live owner keeps its key by renewing its lease,
/// a lapsed key is taken over once, and only final outcomes are kept.
@Suite struct StartKeysTests {
    static func keys(_ db: TestDatabase, lease: Duration = .seconds(3), renewEvery: Duration = .seconds(1)) -> StartKeys {
        var configuration = IdempotencyConfiguration()
        (configuration.lease, configuration.renewEvery) = (lease, renewEvery)
        return StartKeys(database: db.app, configuration: configuration)
    }

    static func key(_ name: String, byte: UInt8) -> IdempotencyKey {
        IdempotencyKey(scope: UUID(), key: name, requestHash: Data(repeating: byte, count: 32))
    }

    /// A retry of `key`: the same key and body, another request.
    static func retry(of key: IdempotencyKey) -> IdempotencyKey {
        IdempotencyKey(scope: key.scope, key: key.key, requestHash: key.requestHash)
    }

    static func issued(_ journeyID: String, at now: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> StartAnswer {
        .attempt(
            AttemptOutcome(
                journeyID: JourneyID(journeyID), environment: .uat,
                result: .success(IssuedToken(attempt: 1, webAppToken: "wat-\(journeyID)", expiresAt: now + 300)),
                decidedAt: now),
            deadline: nil)
    }

    static func webAppToken(_ result: StartResult?) -> String? {
        guard case .attempt(let outcome, _) = result?.answer, case .success(let issued) = outcome.result else { return nil }
        return issued.webAppToken
    }

    @Test func aLiveOwnerRenewsItsLeaseAndKeepsTheKey() async throws {
        try await TestDatabase.with { (db: TestDatabase) async throws in
            var configuration = IdempotencyConfiguration()
            (configuration.lease, configuration.renewEvery) = (.milliseconds(600), .milliseconds(150))
            configuration.wait = .milliseconds(1200)
            let keys = StartKeys(database: db.app, configuration: configuration)
            let owner = Self.key("held", byte: 3)
            let recoveries = Count()
            let answered = try await keys.holding(owner) {
                let claimed = try await db.app.transaction { connection in
                    try keys.claim(owner, journeyID: JourneyID("j-held"), on: connection)
                }
                #expect(claimed)
                // Twice the lease passes while the owner works: its renewals keep the retry out.
                let refused = await captureError {
                    _ = try await keys.replay(Self.retry(of: owner)) { id in
                        recoveries.add()
                        return Self.issued(id.rawValue)
                    }
                }
                #expect((refused as? EngineError)?.code == .idempotencyKeyInProgress)
                #expect((refused as? EngineError)?.journeyID == JourneyID("j-held"))
                return "done"
            }
            #expect(answered == "done")
            #expect(recoveries.value == 0)
            #expect(try await keys.lookup(owner)?.lapsed == false)
        }
    }

    @Test func twoConcurrentRetriesAfterTheLeaseLapsedTakeTheKeyOverOnce() async throws {
        try await TestDatabase.with { (db: TestDatabase) async throws in
            let dead = Self.key("orphan", byte: 5)
            let claimed = try await db.app.transaction { connection in
                try Self.keys(db, lease: .zero).claim(dead, journeyID: JourneyID("j-1"), on: connection)
            }
            #expect(claimed)
            var configuration = IdempotencyConfiguration()
            configuration.wait = .seconds(5)
            let (waiting, atOnce) = (StartKeys(database: db.app, configuration: configuration), Self.keys(db))
            var immediate = atOnce.configuration
            immediate.wait = .zero
            let noWait = StartKeys(database: db.app, configuration: immediate)
            let recovering = TestGate()
            let recoveries = Count()
            let recover: @Sendable (JourneyID) async throws -> StartAnswer = { id in
                recoveries.add()
                await recovering.wait()
                return Self.issued(id.rawValue)
            }
            // The first retry takes the key over and recovers until the gate opens; the second,
            // meanwhile, finds the key in progress under the first's new lease.
            let first = Task { try await waiting.replay(Self.retry(of: dead), recover: recover) }
            try await waitUntil("the first retry recovers") { recovering.waiting == 1 }
            let refused = await captureError { _ = try await noWait.replay(Self.retry(of: dead), recover: recover) }
            #expect((refused as? EngineError)?.code == .idempotencyKeyInProgress)
            recovering.open()
            let answers = [try await first.value, try await noWait.replay(Self.retry(of: dead), recover: recover)]
            #expect(recoveries.value == 1)
            #expect(answers.map(Self.webAppToken) == ["wat-j-1", "wat-j-1"])
            #expect(try await noWait.lookup(dead)?.state == .completed)
        }
    }

    @Test func aTakeOverThatGetsARetryableAnswerReleasesTheKeyForTheNextRetry() async throws {
        try await TestDatabase.with { (db: TestDatabase) async throws in
            let dead = Self.key("k", byte: 9)
            var configuration = IdempotencyConfiguration()
            (configuration.lease, configuration.wait) = (.zero, .zero)
            let keys = StartKeys(database: db.app, configuration: configuration)
            _ = try await db.app.transaction { try keys.claim(dead, journeyID: JourneyID("j-2"), on: $0) }
            let pending = DomainError(
                code: .processCreationPending, message: "Unico has no process yet", status: .creatingProcess)
            let refused = try await keys.replay(Self.retry(of: dead)) { .refused($0, pending) }
            guard case .refused(let id, let refusal) = refused.answer else { Issue.record("not refused: \(refused)"); return }
            #expect(id == JourneyID("j-2") && refusal.code == .processCreationPending)
            #expect(try await keys.lookup(dead)?.state == .released)
            let created = try await keys.replay(Self.retry(of: dead)) { Self.issued($0.rawValue) }
            #expect(Self.webAppToken(created) == "wat-j-2")
            #expect(try await keys.lookup(dead)?.state == .completed)
        }
    }

    @Test func finalOutcomesAreKeptAndRetryableOnesReleaseTheKey() async throws {
        try await TestDatabase.with { (db: TestDatabase) async throws in
            var configuration = IdempotencyConfiguration()
            configuration.wait = .zero
            let keys = StartKeys(database: db.app, configuration: configuration)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            func failed(_ error: HumanTokenAPIError) -> StartAnswer {
                .attempt(
                    AttemptOutcome(
                        journeyID: JourneyID("j-1"), environment: .uat, result: .failure(Journeys.creationFailed(error)),
                        decidedAt: now),
                    deadline: nil)
            }
            let refusedField = failed(HumanTokenAPIError(.invalidArgument, "refused", field: "person.phone", status: 400))
            let unreachable = failed(HumanTokenAPIError(.serverError, "down", status: 503))
            let (kept, released) = (Self.key("kept", byte: 7), Self.key("released", byte: 7))
            for (key, answer) in [(kept, refusedField), (released, unreachable)] {
                try await db.app.transaction { connection in
                    #expect(try keys.claim(key, journeyID: JourneyID("j-1"), on: connection))
                    _ = try connection.query(try StartKeys.finishing(key, answer: answer, answerID: UUID()))
                }
            }
            let replay = try await keys.replay(Self.retry(of: kept)) { _ in
                Issue.record("recovered")
                return Self.issued("no")
            }
            guard case .attempt(let outcome, _) = replay.answer, case .failure(let error) = outcome.result else {
                Issue.record("not the refusal: \(replay)")
                return
            }
            #expect(error.unico?.code == .invalidArgument && error.unico?.field == "person.phone")
            #expect(outcome.decidedAt == now)
            let recovered = try await keys.replay(Self.retry(of: released)) { id in
                #expect(id == JourneyID("j-1"))
                return .refused(id, DomainError(code: .processCreationPending, message: "pending", status: .creatingProcess))
            }
            if case .refused = recovered.answer {} else { Issue.record("not refused: \(recovered)") }
            #expect(try await keys.lookup(released)?.state == .released)

            #expect(Self.issued("j").isFinal && refusedField.isFinal)
            #expect(StartAnswer.ended(JourneyID("j"), .abandoned).isFinal)
            #expect(!unreachable.isFinal)
            #expect(!failed(HumanTokenAPIError(.rateLimited, "slow", status: 429, retryAfter: 2)).isFinal)
        }
    }

    @Test func aReplayWithAnotherBodyIsRefused() async throws {
        try await TestDatabase.with { (db: TestDatabase) async throws in
            let keys = Self.keys(db)
            let key = Self.key("body", byte: 1)
            try await db.app.transaction { connection in
                _ = try connection.query(try #require(try StartKeys.storing(key, answer: Self.issued("j-3"), answerID: UUID())))
            }
            let other = IdempotencyKey(scope: key.scope, key: key.key, requestHash: Data(repeating: 2, count: 32))
            let refused = await captureError { _ = try await keys.replay(other) { _ in Self.issued("no") } }
            #expect((refused as? EngineError)?.code == .idempotencyKeyReused)
            #expect(Self.webAppToken(try await keys.replay(Self.retry(of: key)) { _ in Self.issued("no") }) == "wat-j-3")
        }
    }
}

/// A counter escaping closures can share.
final class Count: Sendable {
    private let atomic = Atomic<Int>(0)
    func add() { atomic.add(1, ordering: .relaxed) }
    var value: Int { atomic.load(ordering: .relaxed) }
}
