import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Testing

/// What a holder of a client token can make the log record: a reused token and the link (with the
/// capture opening it is) at most once per attempt; later reuses are answered from the loaded state and append nothing.
@Suite(.serialized) struct ClientReuseTests {
    /// Runs `count` calls at once and returns their results in no particular order.
    static func all<T: Sendable>(_ count: Int, _ call: @escaping @Sendable () async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: T.self) { group in
            for _ in 0..<count { group.addTask { try await call() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The event types of the journey's stream, in order.
    static func types(_ id: JourneyID, _ stack: TestStack) async throws -> [String] {
        try await EventStore(client: stack.database.app).readStream(StreamName.journey(id.rawValue)).map(\.type)
    }

    @Test func aHundredTokenReusesAndAHundredLinkReadsAppendAtMostOneEventEach() async throws {
        try await TestStack.with { stack in
            let started = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "clientReference": "order-7",
                    "createProcess": "now",
                ])
            #expect(started.status == 201)
            let id = JourneyID(try #require(started["journeyId"] as? String))
            let webAppToken = try #require(started["webAppToken"] as? String)
            let journeys = Journeys(database: stack.database.app, dependencies: stack.dependencies.engine)
            #expect(try await Self.types(id, stack).filter { $0 == "TokenIssued" }.count == 1)

            let tokens = try await Self.all(100) { try await journeys.issueToken(id, actor: "client-token") }
            for outcome in tokens {
                guard case .success(let issued) = outcome.result else {
                    Issue.record("a reuse failed: \(outcome.result)")
                    continue
                }
                #expect(issued.attempt == 1 && issued.webAppToken == webAppToken)
            }
            let afterTokens = try await Self.types(id, stack)
            #expect(afterTokens.filter { $0 == "TokenIssued" }.count == 2, "the start's issue and one reuse: \(afterTokens)")

            // Once recorded, further reuses write nothing at all.
            _ = try await Self.all(100) { try await journeys.issueToken(id, actor: "client-token") }
            #expect(try await Self.types(id, stack) == afterTokens)

            // The link's first read is the person opening the capture: LinkIssued and CaptureOpened.
            let links = try await Self.all(100) { try await journeys.issueLink(id, actor: "client-token") }
            #expect(Set(links.map(\.link)).count == 1)
            #expect(links.allSatisfy { $0.attempt == 1 })
            let afterLinks = try await Self.types(id, stack)
            #expect(afterLinks == afterTokens + ["LinkIssued", "CaptureOpened"])
            _ = try await Self.all(100) { try await journeys.issueLink(id, actor: "client-token") }
            #expect(try await Self.types(id, stack) == afterLinks)
            let state = try await journeys.state(of: id)
            #expect(state.currentAttempt?.tokensIssued == 2)
            #expect(state.currentAttempt?.linkIssuedAt != nil)
        }
    }
}
