import EventStore
import Foundation
import HTTPServer
@testable import JourneyAPI
import JourneyDomain
import JourneyTesting
import Postgres
import SDKLiteSimulator
import Testing
import UnicoEmulator

/// Many clients holding one journey's client token, all at once, on every client-token route:
/// no answer is a 500 (a conflict that outlasts the command runner's retries is 409
/// `concurrent_update` with `Retry-After`), the reuses and link reads append at most one event
/// per attempt, and the journey's attempts match Unico's processes one to one.
@Suite(.serialized) struct ConcurrentClientTokenTests {
    /// Requests sent at once per burst.
    static let burst = 100

    /// Sends `count` requests at once (a task each) and returns every answer.
    func burst(
        _ count: Int = Self.burst,
        _ request: @escaping @Sendable (Int) async throws -> TestResponse
    ) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for n in 0..<count { group.addTask { try await request(n) } }
            var answers: [TestResponse] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
    }

    /// Checks that every answer is a 2xx, or a 409/503 problem+json carrying `Retry-After`, or
    /// (when `refusals` names it) a 409 domain refusal; returns the answers' statuses counted.
    @discardableResult
    func expectAnswered(
        _ answers: [TestResponse], route: String, refusals: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Int: Int] {
        var statuses: [Int: Int] = [:]
        for answer in answers {
            statuses[answer.status, default: 0] += 1
            if (200..<300).contains(answer.status) { continue }
            let problem = answer.headers["content-type"]?.hasPrefix("application/problem+json") == true
            if answer.status == 409, problem, let code = answer.code, refusals.contains(code) { continue }
            let retryable =
                (answer.status == 409 || answer.status == 503) && problem
                && answer.headers["retry-after"] != nil
            #expect(
                retryable, "\(route) answered \(answer.status) \(answer.code ?? answer.text)",
                sourceLocation: sourceLocation)
        }
        #expect(statuses[500] == nil, "\(route): \(statuses)", sourceLocation: sourceLocation)
        return statuses
    }

    /// The journey's attempts and Unico's processes for it agree: one process per attempt that
    /// has one, and no process for an attempt the journey does not know.
    func expectOneProcessPerAttempt(
        _ h: JourneyHarness, _ id: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let rows = try await h.database.owner.query(
            "SELECT process_id, attempt FROM process_journeys WHERE journey_id = \(id) ORDER BY attempt")
        let recorded = try rows.map { (try $0.decode(0, as: String.self), try $0.decode(1, as: Int.self)) }
        let attempts = try await h.count("ProcessCreationRequested", id)
        let processes = h.emulator.processes().filter { $0.clientReference?.hasPrefix(id + "-a") == true }
        #expect(
            processes.count == attempts, "Unico has \(processes.count) processes for \(attempts) attempts",
            sourceLocation: sourceLocation)
        #expect(Set(processes.map(\.id)) == Set(recorded.map(\.0)), sourceLocation: sourceLocation)
        #expect(
            Set(recorded.map(\.1)).count == recorded.count, "two processes for one attempt",
            sourceLocation: sourceLocation)
        for (processID, attempt) in recorded {
            let reference = ProcessCreationRequested.unicoClientReference(journeyID: JourneyID(id), attempt: attempt)
            #expect(processes.first { $0.id == processID }?.clientReference == reference, sourceLocation: sourceLocation)
        }
    }

    @Test func aConflictThatOutlastsTheRetriesAnswers409ConcurrentUpdateWithRetryAfter() async throws {
        var router = Router()
        router.use(Problem.engineErrors)
        router.post("/v1/journeys/{id}/token") { _ in
            throw EventStoreError(.wrongExpectedVersion, "stream journey-x is at version 9, expected 8", currentVersion: 9)
        }
        router.post("/v1/journeys/{id}/capture-opened") { _ in
            throw EventStoreError(.orderConflict, "a newer transaction appended first")
        }
        let client = TestClient(router: router)
        for route in ["token", "capture-opened"] {
            let answer = try await client.send("POST", "/v1/journeys/\(UUID().uuidString)/\(route)")
            #expect(answer.status == 409)
            #expect(answer.code == "concurrent_update")
            #expect(answer.headers["retry-after"] == "1")
            #expect(answer.headers["content-type"]?.hasPrefix("application/problem+json") == true)
        }
        #expect(Problem.mapped(EventStoreError(.invalidEvent, "not a version conflict")) == nil)
    }

    @Test func concurrentTokenAndLinkRequestsAnswerFromTheJourneyAndAppendAtMostOneEventPerAttempt() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            #expect(started.status == 201)
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let webAppToken = try #require(started["webAppToken"] as? String)

            let tokens = try await burst(300) { _ in
                try await h.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            }
            expectAnswered(tokens, route: "POST token")
            for answer in tokens where answer.status == 200 {
                #expect(answer["attempt"] as? Int == 1)
                #expect(answer["webAppToken"] as? String == webAppToken)
            }
            // The start's issue, and at most one reuse.
            #expect(try await h.count("TokenIssued", id) <= 2)

            let links = try await burst { n in
                try await h.send(n.isMultiple(of: 2) ? "GET" : "HEAD", "/v1/journeys/\(id)/link", bearer: clientToken)
            }
            expectAnswered(links, route: "GET/HEAD link")
            let link = try #require(links.first { $0.status == 200 && !$0.body.isEmpty }?["link"] as? String)
            for answer in links where answer.status == 200 && !answer.body.isEmpty {
                #expect(answer["link"] as? String == link)
            }
            #expect(try await h.count("LinkIssued", id) <= 1)

            let opened = try await burst { _ in
                try await h.send("POST", "/v1/journeys/\(id)/capture-opened", bearer: clientToken)
            }
            expectAnswered(opened, route: "POST capture-opened")
            #expect(try await h.count("CaptureOpened", id) == 1)

            // The capture was opened: the next request creates attempt 2, and the racing ones
            // wait for its process and get the same token.
            let fresh = try await burst { _ in
                try await h.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            }
            expectAnswered(fresh, route: "POST token after capture-opened")
            let second = fresh.filter { $0.status == 200 }
            #expect(Set(second.compactMap { $0["attempt"] as? Int }) == [2])
            #expect(Set(second.compactMap { $0["webAppToken"] as? String }).count == 1)
            #expect(try await h.count("ProcessCreationRequested", id) == 2)
            #expect(try await h.count("TokenIssued", id) <= 4)
            try await expectOneProcessPerAttempt(h, id)
        }
    }

    @Test func concurrentSuccessCallbacksCompleteTheJourneyOnce() async throws {
        try await withJourneys { h in
            let captured = try await h.capture(.approve)
            let callbacks = try await burst { _ in try await h.callbackSuccess(captured) }
            expectAnswered(callbacks, route: "POST callback success")
            #expect(try await h.count("CallbackReceived", captured.id) == 1)
            // The callback that recorded the success fetched the result before answering.
            #expect(callbacks.contains { $0["status"] as? String == "completed" })
            let journey = try await h.send("GET", "/v1/journeys/\(captured.id)", bearer: h.reader)
            #expect(journey["status"] as? String == "completed")
            #expect(try await h.count("JourneyCompleted", captured.id) == 1)
            try await expectOneProcessPerAttempt(h, captured.id)
        }
    }

    @Test func concurrentErrorCallbacksFailTheAttemptOnce() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            _ = try await h.send("POST", "/v1/journeys/\(id)/capture-opened", bearer: clientToken)
            let callbacks = try await burst { _ in
                try await h.send(
                    "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
                    json: ["outcome": "error", "code": 73302])
            }
            expectAnswered(callbacks, route: "POST callback error")
            #expect(try await h.count("CallbackReceived", id) == 1)
            #expect(try await h.count("AttemptFailed", id) == 1)
            try await expectOneProcessPerAttempt(h, id)
        }
    }
}
