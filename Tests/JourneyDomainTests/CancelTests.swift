import Foundation
@testable import JourneyDomain
import Testing

@Suite("Cancellation")
struct CancelTests {
    static let cancellation = JourneyCancellation(reason: "order 42 withdrawn", actor: "api-key:abcd2345")

    static let activeStages: [String] = [
        "started", "creatingProcess", "tokenIssued", "captureOpened", "awaitingResult",
        "retryScheduled",
    ]

    static func scenario(_ stage: String) throws -> Scenario {
        switch stage {
        case "started": return Scenario(events: Array(try Scenario.creatingProcess().events.prefix(1)))
        case "creatingProcess": return try .creatingProcess()
        case "tokenIssued": return try .tokenIssued()
        case "captureOpened": return try .captureOpened()
        case "awaitingResult": return try .awaitingResult()
        default: return try .retryScheduled()
        }
    }

    @Test("an active journey is cancelled: JourneyCancelled then JourneyAbandoned, final, nothing due", arguments: activeStages)
    func activeIsCancelled(stage: String) throws {
        var scenario = try Self.scenario(stage)
        let attempt = scenario.state.currentAttemptNumber
        let events = try scenario.run(.cancel(Self.cancellation), at: 1000)
        #expect(events.map(\.eventType) == ["JourneyCancelled", "JourneyAbandoned"])
        guard case .journeyCancelled(let cancelled) = events[0], case .journeyAbandoned(let abandoned) = events[1] else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(cancelled.reason == "order 42 withdrawn" && cancelled.actor == "api-key:abcd2345")
        #expect(cancelled.attempt == attempt && abandoned.attempt == attempt)
        #expect(abandoned.reason == AbandonReason(kind: .cancelled, detail: "order 42 withdrawn"))
        let state = scenario.state
        #expect(state.status == .abandoned && state.status.isTerminal)
        #expect(state.abandonReason?.kind == .cancelled)
        #expect(state.abandonedAt == Fixture.t0.addingTimeInterval(1000))
        #expect(state.nextDue == nil, "no worker acts on a cancelled journey")
    }

    @Test("a cancelled journey makes no more processes and says why to the app")
    func cancelledRefusesTheApp() throws {
        var scenario = try Scenario.retryScheduled()
        try scenario.run(.cancel(Self.cancellation), at: 1000)
        for command: JourneyCommand in [.issueToken, .issueLink, .retry(afterAttempt: 1), .recordCaptureOpened(attempt: 1)] {
            let error = try #require(scenario.refusal(command, at: 2000), "\(command)")
            #expect(error.code == .invalidTransition, "\(command)")
            #expect(error.status == .abandoned)
            #expect(error.abandonReason == .cancelled)
            #expect(error.message.contains("abandoned") && error.message.contains("cancelled"), "\(error.message)")
        }
    }

    @Test("a repeated cancel decides nothing; an ended or unstarted journey is refused")
    func repeatAndEnded() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.cancel(Self.cancellation), at: 1000)
        #expect(try scenario.run(.cancel(JourneyCancellation(reason: "again", actor: "cli")), at: 1001).isEmpty)
        #expect(scenario.state.abandonReason?.detail == "order 42 withdrawn", "the first reason stays")

        for ended in [try Scenario.completed(), try Scenario.abandoned()] {
            let error = try #require(ended.refusal(.cancel(Self.cancellation), at: 5000))
            #expect(error.code == .invalidTransition)
            #expect(error.message.contains("cannot cancel the journey while the journey is \(ended.state.status.rawValue)"))
        }
        #expect(try Scenario.abandoned().refusal(.cancel(Self.cancellation), at: 5000)?.abandonReason == .requested)
        #expect(Scenario().refusal(.cancel(Self.cancellation), at: 1)?.code == .invalidTransition)
    }

    @Test("rebuilding from the events gives the live state")
    func foldEqualsLive() throws {
        var scenario = try Scenario.captureOpened()
        try scenario.run(.cancel(Self.cancellation), at: 1000)
        let encoded = try scenario.events.map { try $0.encoded() }
        let decoded = try encoded.map { try JourneyEvent(type: $0.type, text: String(decoding: $0.data, as: UTF8.self)) }
        #expect(Journey.fold(decoded) == scenario.state)
    }

    @Test(
        "the reason: required, bounded, no control characters, nothing shaped like personal data",
        arguments: [
            (nil, FieldIssue.Code.required),
            ("   ", .required),
            (String(repeating: "a", count: JourneyCancellation.maximumReasonLength + 1), .tooLong),
            ("bad\u{7}bell", .invalidFormat),
            ("line\nbreak", .invalidFormat),
            ("CPF 123.456.789-09 asked", .invalidValue),
            ("12345678909", .invalidValue),
            ("CNPJ 11.222.333/0001-81", .invalidValue),
            ("call (11) 98765-4321", .invalidValue),
            ("+55 11 98765 4321", .invalidValue),
            ("mail maria.silva@example.com.br please", .invalidValue),
            ("<maria@example.com>", .invalidValue),
        ] as [(String?, FieldIssue.Code)])
    func refusedReasons(text: String?, code: FieldIssue.Code) {
        guard case .failure(let issue) = JourneyCancellation.checkedReason(text) else {
            Issue.record("accepted \(String(describing: text))")
            return
        }
        #expect(issue.code == code)
        #expect(issue.field == "reason")
        if let text, text.count > 3 { #expect(!issue.message.contains(text), "the message never repeats the value") }
    }

    @Test(
        "ordinary reasons pass, trimmed",
        arguments: [
            ("  order 42 withdrawn by the customer ", "order 42 withdrawn by the customer"),
            (
                "duplicate of journey 0193a5e2-7c1d-7b3e-9f00-5b1f2a3c4d5e",
                "duplicate of journey 0193a5e2-7c1d-7b3e-9f00-5b1f2a3c4d5e"
            ),
            ("ticket 1234567890, 10 digits", "ticket 1234567890, 10 digits"),
            ("fraud team @ night shift", "fraud team @ night shift"),
            ("ação cancelada pelo cliente", "ação cancelada pelo cliente"),
            (
                String(repeating: "é", count: JourneyCancellation.maximumReasonLength),
                String(repeating: "é", count: JourneyCancellation.maximumReasonLength)
            ),
        ])
    func acceptedReasons(text: String, expected: String) throws {
        #expect(try JourneyCancellation.checkedReason(text).get() == expected)
    }
}
