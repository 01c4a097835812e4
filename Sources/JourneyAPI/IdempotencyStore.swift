import EventStore
import Foundation
import HTTPServer
import Postgres

/// The `idempotency_keys` table: claims a key with the journey's first events, stores a final
/// answer or releases the key after a retryable one, and lets a replay wait for the answer.
///
/// Only final answers are kept (``isFinal(_:)``). The request that holds a key renews a short
/// lease on it while it works (``holding(_:_:)``); a released key, or one whose lease lapsed (its
/// request died), is taken over by one retry, which answers from the journey's current state:
/// never a second journey.
struct IdempotencyStore: Sendable {
    /// A key as a request presents it, scoped to the API key that sent it.
    struct Claim: Sendable {
        var apiKeyID: UUID
        var key: String
        /// SHA-256 of the request body.
        var requestHash: Data
        /// The request's own id: the key's owner while this request holds it.
        var owner = UUID.random()
    }

    /// Lease timing.
    struct Configuration: Sendable {
        /// How long a key stays held after its owner's last renewal. Default 3 s.
        var lease: Duration = .seconds(3)
        /// How often the owner renews. Default 1 s.
        var renewEvery: Duration = .seconds(1)
        /// When a row without a lease (written before leases) lapses after its creation. Default 60 s.
        var staleAfter: Duration = .seconds(60)
    }

    /// Where a key stands.
    enum State: String, Sendable {
        /// The first request is running (or died before it could answer).
        case inProgress = "in_progress"
        /// A final answer is stored and replayed.
        case completed
        /// The first request ended with a retryable answer; retries answer from the journey.
        case released
    }

    /// A stored row.
    struct Record: Sendable {
        var requestHash: Data
        var state: State
        var completed: Bool { state == .completed }
        var status: Int?
        var body: String?
        var journeyID: String
        /// Released, or in progress with its lease lapsed (the request that held it died): a
        /// retry may take it over.
        var lapsed: Bool
    }

    /// Answers a released or lapsed key from its journey's current state.
    typealias Recovery = @Sendable (_ journeyID: String) async throws -> HTTPResponse

    /// Longest key accepted.
    static let maximumKeyLength = 255

    let database: PostgresClient
    var configuration = Configuration()

    /// Inserts the in-progress row, held under `lease`, on `connection`; false when another
    /// request holds the key.
    static func claim(
        _ claim: Claim, journeyID: String, lease: Duration = Configuration().lease,
        on connection: PostgresConnection
    ) throws -> Bool {
        let rows = try connection.query(APIStatements.claimKey(claim, journeyID: journeyID, lease: lease / .seconds(1)))
        return rows.first != nil
    }

    /// Runs `work` while renewing `claim`'s lease every ``Configuration/renewEvery`` (a renewal
    /// finds nothing until `work` has claimed the key); without a claim, just runs `work`.
    func holding<T: Sendable>(_ claim: Claim?, _ work: () async throws -> T) async throws -> T {
        guard let claim else { return try await work() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.renew(claim) }
            defer { group.cancelAll() }
            return try await work()
        }
    }

    /// Renews `claim`'s lease until cancelled; a failed renewal is retried at the next beat (the
    /// lease lapses if the database stays out of reach).
    private func renew(_ claim: Claim) async {
        let query = APIStatements.renewKey(claim, lease: configuration.lease / .seconds(1))
        while true {
            do { try await Task.sleep(for: configuration.renewEvery) } catch { return }
            _ = try? await database.query(query)
        }
    }

    /// Makes `claim`'s request the owner of its released or lapsed key; the journey when it did.
    func takeOver(_ claim: Claim) async throws -> String? {
        let rows = try await database.query(
            APIStatements.takeOverKey(
                claim, lease: configuration.lease / .seconds(1), staleSeconds: staleSeconds))
        return try rows.first?.decode(0, as: String.self)
    }

    /// True for an answer a key keeps: a success, or a 4xx about the request itself (validation,
    /// a refused field). Retryable answers are not final: 408, 409, 425, 429 and every 5xx.
    static func isFinal(_ status: HTTPStatus) -> Bool {
        switch status.code {
        case 200..<300: true
        case 408, 409, 425, 429: false
        case 400..<500: true
        default: false
        }
    }

    /// Stores the answer of the request that holds the key when it is final (``isFinal(_:)``),
    /// else releases the key, on `connection`.
    static func finish(
        _ claim: Claim, journeyID: String, response: HTTPResponse,
        on connection: PostgresConnection
    ) throws {
        _ = try connection.query(finishing(claim, journeyID: journeyID, response: response))
    }

    /// The statement ``finish(_:journeyID:response:on:)`` runs, for a caller that pipelines it.
    /// The key written once, with its final answer, in the transaction that produced it (a
    /// start without a process): fails with a unique violation (``isHeldElsewhere(_:)``) when
    /// another request holds or held the key, which rolls the transaction back. Nil for an
    /// answer that is not final: nothing is kept, and a retry starts afresh.
    static func storing(_ claim: Claim, journeyID: String, response: HTTPResponse) -> PostgresQuery? {
        isFinal(response.status) ? APIStatements.insertCompletedKey(claim, journeyID: journeyID, response: response) : nil
    }

    /// True for the error of ``storing(_:journeyID:response:)`` when the key was taken.
    static func isHeldElsewhere(_ error: PostgresError) -> Bool {
        error.code == .uniqueViolation && error.constraint == "idempotency_keys_pkey"
    }

    static func finishing(_ claim: Claim, journeyID: String, response: HTTPResponse) -> PostgresQuery {
        isFinal(response.status)
            ? APIStatements.completeKey(claim, response: response)
            : APIStatements.releaseKey(claim, journeyID: journeyID)
    }

    /// Releases `claim`'s key now or, while the database is out of reach, keeps trying in the
    /// background until the lease would lapse anyway: a retry then finds the key released at
    /// once instead of waiting out the lease.
    func releaseSoon(_ claim: Claim, journeyID: String) async {
        if (try? await release(claim, journeyID: journeyID)) != nil { return }
        let deadline = ContinuousClock.now + configuration.lease
        Task { [self] in
            while ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(200))
                if (try? await release(claim, journeyID: journeyID)) != nil { return }
            }
        }
    }

    /// Releases `claim`'s key if its request still holds it for `journeyID` (that request
    /// failed); false when there was no such key.
    func release(_ claim: Claim, journeyID: String) async throws -> Bool {
        try await database.query(APIStatements.releaseKey(claim, journeyID: journeyID)).first != nil
    }

    /// Stores a recovered answer unless another replay stored one first; false then.
    func completeRecovered(_ claim: Claim, response: HTTPResponse) async throws -> Bool {
        let rows = try await database.query(APIStatements.completeKey(claim, response: response))
        return rows.first != nil
    }

    /// The row of `claim`'s key, if any.
    func lookup(_ claim: Claim) async throws -> Record? {
        let rows = try await database.query(APIStatements.lookupKey(claim, staleSeconds: staleSeconds))
        return try rows.first.map {
            Record(
                requestHash: try $0.decode(0), state: State(rawValue: try $0.decode(1)) ?? .inProgress,
                status: try $0.decode(2), body: try $0.decode(3), journeyID: try $0.decode(4), lapsed: try $0.decode(5))
        }
    }

    private var staleSeconds: Double {
        configuration.staleAfter / .seconds(1)
    }

    /// The answer for `claim`'s key, polling while another request holds it for at most `wait`.
    ///
    /// A released key, or one whose lease lapsed (its request died between recording the start
    /// and storing the answer), is taken over by this request and answered by `recover` from
    /// the journey's current state, under this request's lease; a final answer is stored for
    /// later replays, any other is given as it is and the key is released again. Throws 422
    /// `idempotency_key_reused` for another body and 409 `idempotency_key_in_progress` (with
    /// `journeyId` and `Retry-After: 1`) while another live request holds the key past `wait`.
    func replay(_ claim: Claim, wait: Duration, recover: Recovery? = nil) async throws -> HTTPResponse {
        let deadline = ContinuousClock.now + wait
        var delay = Duration.milliseconds(20)
        var journeyID: String?
        while true {
            if let record = try await lookup(claim) {
                journeyID = record.journeyID
                guard record.requestHash == claim.requestHash else {
                    throw Problem(
                        status: .unprocessableContent, code: "idempotency_key_reused",
                        detail: "This Idempotency-Key was used with another request body.",
                        extra: ["field": "Idempotency-Key"])
                }
                if record.completed, let status = record.status, let body = record.body {
                    let type = status >= 400 ? Problem.mediaType : "application/json"
                    return HTTPResponse(
                        status: HTTPStatus(code: status),
                        headers: ["Content-Type": type, "Idempotent-Replayed": "true"], body: Data(body.utf8))
                }
                if record.lapsed, let recover, let owned = try await takeOver(claim) {
                    if var recovered = try await answer(claim, journeyID: owned, recover: recover) {
                        recovered.headers["Idempotent-Replayed"] = "true"
                        return recovered
                    }
                    continue
                }
            }
            guard ContinuousClock.now < deadline else {
                throw Problem(
                    status: .conflict, code: "idempotency_key_in_progress",
                    detail: "The first request with this Idempotency-Key has not finished; retry later.",
                    extra: journeyID.map { ["journeyId": $0] } ?? [:], headers: ["Retry-After": "1"])
            }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(200))
        }
    }

    /// Answers a key this request took over from its journey, holding the lease meanwhile: stores
    /// a final answer (nil when another request stored one first: replay that), releases the key
    /// after any other, and on an error releases it before rethrowing.
    private func answer(_ claim: Claim, journeyID: String, recover: Recovery) async throws -> HTTPResponse? {
        let recovered: HTTPResponse
        do {
            recovered = try await holding(claim) { try await recover(journeyID) }
        } catch {
            _ = try? await release(claim, journeyID: journeyID)
            throw error
        }
        if Self.isFinal(recovered.status) {
            return try await completeRecovered(claim, response: recovered) ? recovered : nil
        }
        _ = try await release(claim, journeyID: journeyID)
        return recovered
    }
}
