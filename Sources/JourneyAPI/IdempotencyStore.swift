import Foundation
import HTTPServer
import Postgres

/// The `idempotency_keys` table: claims a key with the journey's first events, stores a final
/// answer or releases the key after a retryable one, and lets a replay wait for the answer.
///
/// Only final answers are kept (``isFinal(_:)``). A released key, or one left in progress by a
/// request that died, is answered from its journey's current state: never a second journey.
struct IdempotencyStore: Sendable {
    /// A key as a request presents it, scoped to the API key that sent it.
    struct Claim: Sendable {
        var apiKeyID: UUID
        var key: String
        /// SHA-256 of the request body.
        var requestHash: Data
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
        /// In progress for longer than `staleAfter`: the first request most likely died.
        var stale: Bool
    }

    /// Answers a released or stale key from its journey's current state.
    typealias Recovery = @Sendable (_ journeyID: String) async throws -> HTTPResponse

    /// Longest key accepted.
    static let maximumKeyLength = 255

    let database: PostgresClient
    /// How long a key may stay in progress before a replay recovers it. Default 60 s, the grace
    /// after which the workers reconcile an unanswered Create Process.
    var staleAfter: Duration = .seconds(60)

    /// Inserts the in-progress row on `connection`; false when another request holds the key.
    static func claim(_ claim: Claim, journeyID: String, on connection: PostgresConnection) throws -> Bool {
        let rows = try connection.query(APIStatements.claimKey(claim, journeyID: journeyID))
        return rows.first != nil
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
    static func finish(_ claim: Claim, journeyID: String, response: HTTPResponse,
                       on connection: PostgresConnection) throws {
        if isFinal(response.status) {
            _ = try connection.query(APIStatements.completeKey(claim, response: response))
        } else {
            _ = try connection.query(APIStatements.releaseKey(claim, journeyID: journeyID))
        }
    }

    /// Releases `claim`'s key if it is still in progress for `journeyID` (the request that holds
    /// it failed); false when there was no such key.
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
            Record(requestHash: try $0.decode(0), state: State(rawValue: try $0.decode(1)) ?? .inProgress,
                   status: try $0.decode(2), body: try $0.decode(3), journeyID: try $0.decode(4), stale: try $0.decode(5))
        }
    }

    private var staleSeconds: Double {
        staleAfter / .seconds(1)
    }

    /// The answer for `claim`'s key, polling while it is in progress for at most `wait`.
    ///
    /// A released key, or one left in progress for longer than `staleAfter` (its request died
    /// between recording the start and storing the answer), is answered by `recover` from the
    /// journey's current state; a final answer is stored for later replays, any other is given as
    /// it is and the key stays open. Throws 422 `idempotency_key_reused` for another body and 409
    /// `idempotency_key_in_progress` (with `journeyId`) when no answer can be given in time.
    func replay(_ claim: Claim, wait: Duration, recover: Recovery? = nil) async throws -> HTTPResponse {
        let deadline = ContinuousClock.now + wait
        var delay = Duration.milliseconds(20)
        var journeyID: String?
        while true {
            if let record = try await lookup(claim) {
                journeyID = record.journeyID
                guard record.requestHash == claim.requestHash else {
                    throw Problem(status: .unprocessableContent, code: "idempotency_key_reused",
                                  detail: "This Idempotency-Key was used with another request body.",
                                  extra: ["field": "Idempotency-Key"])
                }
                if record.completed, let status = record.status, let body = record.body {
                    let type = status >= 400 ? Problem.mediaType : "application/json"
                    return HTTPResponse(status: HTTPStatus(code: status),
                                        headers: ["Content-Type": type, "Idempotent-Replayed": "true"], body: Data(body.utf8))
                }
                if record.state == .released || record.stale, let recover {
                    var recovered = try await recover(record.journeyID)
                    if Self.isFinal(recovered.status) {
                        guard try await completeRecovered(claim, response: recovered) else { continue }
                    }
                    recovered.headers["Idempotent-Replayed"] = "true"
                    return recovered
                }
            }
            guard ContinuousClock.now < deadline else {
                throw Problem(status: .conflict, code: "idempotency_key_in_progress",
                              detail: "The first request with this Idempotency-Key has not finished; retry later.",
                              extra: journeyID.map { ["journeyId": $0] } ?? [:], headers: ["Retry-After": "1"])
            }
            try await Task.sleep(for: delay)
            delay = min(delay * 2, .milliseconds(200))
        }
    }
}
