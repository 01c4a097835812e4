import EventStore
import Foundation
import JourneyDomain
import Postgres

/// The start's idempotency keys (`idempotency_keys`): a key is claimed with the journey's first
/// events, keeps a final outcome or is released after a retryable one, and lets a replay wait
/// for the outcome.
///
/// The request that holds a key renews a short lease on it while it works (``holding(_:_:)``); a
/// released key, or one whose lease lapsed (its request died), is taken over by one retry, which
/// answers from the journey's current state: never a second journey.
struct StartKeys: Sendable {
    /// Where a key stands.
    enum State: String, Sendable {
        /// The first request is running (or died before it could answer).
        case inProgress = "in_progress"
        /// A final outcome is stored and replayed.
        case completed
        /// The first request ended with a retryable answer; retries answer from the journey.
        case released
    }

    /// A stored row.
    struct Record: Sendable {
        var requestHash: Data
        var state: State
        var outcome: StoredStartAnswer?
        var journeyID: String
        /// Released, or in progress with its lease lapsed: a retry may take it over.
        var lapsed: Bool
    }

    let database: PostgresClient
    let configuration: IdempotencyConfiguration

    private var leaseSeconds: Double { configuration.lease / .seconds(1) }
    private var staleSeconds: Double { configuration.staleAfter / .seconds(1) }

    /// Inserts the in-progress row under the lease, on `connection`; false when another request holds the key.
    func claim(_ key: IdempotencyKey, journeyID: JourneyID, on connection: PostgresConnection) throws -> Bool {
        try connection.query(IdempotencyStatements.claim(key, journeyID: journeyID.rawValue, lease: leaseSeconds)).first != nil
    }

    /// The statement writing the key once with its final `answer` (a start without a process):
    /// it fails with a unique violation (``isHeldElsewhere(_:)``) when another request holds or
    /// held the key, which rolls its transaction back. Nil for an answer the key does not keep.
    static func storing(_ key: IdempotencyKey, answer: StartAnswer, answerID: UUID) throws -> PostgresQuery? {
        guard let stored = StoredStartAnswer(answer, answerID: answerID) else { return nil }
        return IdempotencyStatements.insertCompleted(key, journeyID: answer.journeyID.rawValue, outcome: try stored.json())
    }

    /// The statement storing `answer` for the request that holds the key when it is final,
    /// else releasing the key.
    static func finishing(_ key: IdempotencyKey, answer: StartAnswer, answerID: UUID) throws -> PostgresQuery {
        guard let stored = StoredStartAnswer(answer, answerID: answerID) else {
            return IdempotencyStatements.release(key, journeyID: answer.journeyID.rawValue)
        }
        return IdempotencyStatements.complete(key, outcome: try stored.json())
    }

    /// True for the error of ``storing(_:answer:answerID:)`` when the key was taken.
    static func isHeldElsewhere(_ error: any Error) -> Bool {
        guard let error = error as? PostgresError else { return false }
        return error.code == .uniqueViolation && error.constraint == "idempotency_keys_pkey"
    }

    /// Runs `work` while renewing `key`'s lease every ``IdempotencyConfiguration/renewEvery`` (a
    /// renewal finds nothing until `work` has claimed the key); without a key, just runs `work`.
    func holding<T: Sendable>(_ key: IdempotencyKey?, _ work: () async throws -> T) async throws -> T {
        guard let key else { return try await work() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.renew(key) }
            defer { group.cancelAll() }
            return try await work()
        }
    }

    /// Renews `key`'s lease until cancelled; a failed renewal is retried at the next beat (the
    /// lease lapses if the database stays out of reach).
    private func renew(_ key: IdempotencyKey) async {
        let query = IdempotencyStatements.renew(key, lease: leaseSeconds)
        while true {
            do { try await Task.sleep(for: configuration.renewEvery) } catch { return }
            _ = try? await database.query(query)
        }
    }

    /// Makes `key`'s request the owner of its released or lapsed key; the journey when it did.
    func takeOver(_ key: IdempotencyKey) async throws -> JourneyID? {
        let rows = try await database.query(IdempotencyStatements.takeOver(key, lease: leaseSeconds, staleSeconds: staleSeconds))
        return try rows.first.map { JourneyID(try $0.decode(0, as: String.self)) }
    }

    /// Releases `key` now or, while the database is out of reach, keeps trying in the background
    /// until the lease would lapse anyway: a retry then finds the key released at once instead
    /// of waiting out the lease.
    func releaseSoon(_ key: IdempotencyKey, journeyID: JourneyID) async {
        if (try? await release(key, journeyID: journeyID)) != nil { return }
        let deadline = ContinuousClock.now + configuration.lease
        Task { [self] in
            while ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(200))
                if (try? await release(key, journeyID: journeyID)) != nil { return }
            }
        }
    }

    /// Releases `key` if its request still holds it for `journeyID`; false when there was no such key.
    @discardableResult
    func release(_ key: IdempotencyKey, journeyID: JourneyID) async throws -> Bool {
        try await database.query(IdempotencyStatements.release(key, journeyID: journeyID.rawValue)).first != nil
    }

    /// Stores a recovered outcome unless another replay stored one first; false then.
    func complete(_ key: IdempotencyKey, answer: StartAnswer, answerID: UUID) async throws -> Bool {
        try await database.query(try Self.finishing(key, answer: answer, answerID: answerID)).first != nil
    }

    /// The row of `key`, if any.
    func lookup(_ key: IdempotencyKey) async throws -> Record? {
        let rows = try await database.query(IdempotencyStatements.lookup(key, staleSeconds: staleSeconds))
        return try rows.first.map {
            Record(
                requestHash: try $0.decode(0), state: State(rawValue: try $0.decode(1)) ?? .inProgress,
                outcome: try $0.decode(2, as: String?.self).flatMap(StoredStartAnswer.decode),
                journeyID: try $0.decode(3), lapsed: try $0.decode(4))
        }
    }

    /// The answer for `key`, polling while another request holds it for at most
    /// ``IdempotencyConfiguration/wait``.
    ///
    /// A released key, or one whose lease lapsed (its request died between recording the start
    /// and storing the outcome), is taken over by this request and answered by `recover` from
    /// the journey's current state, under this request's lease; a final answer is stored for
    /// later replays, any other is given as it is and the key is released again. Throws
    /// `idempotency_key_reused` for another body and `idempotency_key_in_progress` (with the
    /// journey) while another live request holds the key past the wait.
    func replay(_ key: IdempotencyKey, recover: @Sendable (JourneyID) async throws -> StartAnswer) async throws -> StartResult {
        let deadline = ContinuousClock.now + configuration.wait
        var delay = Duration.milliseconds(20)
        var journeyID: JourneyID?
        while true {
            if let record = try await lookup(key) {
                journeyID = JourneyID(record.journeyID)
                guard record.requestHash == key.requestHash else {
                    throw EngineError(.idempotencyKeyReused, "this Idempotency-Key was used with another request body")
                }
                if record.state == .completed, let stored = record.outcome, let answer = stored.answer {
                    return StartResult(answer: answer, replayed: true, answerID: stored.answerID ?? UUID.random())
                }
                if record.lapsed, let owned = try await takeOver(key) {
                    if let recovered = try await answer(key, journeyID: owned, recover: recover) { return recovered }
                    continue
                }
            }
            guard ContinuousClock.now < deadline else {
                throw EngineError(
                    .idempotencyKeyInProgress, "the first request with this Idempotency-Key has not finished",
                    journeyID: journeyID)
            }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(200))
        }
    }

    /// Answers a key this request took over from its journey, holding the lease meanwhile: stores
    /// a final answer (nil when another request stored one first: replay that), releases the key
    /// after any other, and on an error releases it before rethrowing.
    private func answer(
        _ key: IdempotencyKey, journeyID: JourneyID, recover: @Sendable (JourneyID) async throws -> StartAnswer
    ) async throws -> StartResult? {
        let recovered: StartAnswer
        let answerID = UUID.random()
        do {
            recovered = try await holding(key) { try await recover(journeyID) }
        } catch {
            _ = try? await release(key, journeyID: journeyID)
            throw error
        }
        let result = StartResult(answer: recovered, replayed: true, answerID: answerID)
        if recovered.isFinal {
            return try await complete(key, answer: recovered, answerID: answerID) ? result : nil
        }
        _ = try await release(key, journeyID: journeyID)
        return result
    }
}
