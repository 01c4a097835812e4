import Foundation
import JourneyDomain
import Testing
import Timestamps

@Suite("Event coding")
struct EventCodingTests {
    static let at = Fixture.t0.addingTimeInterval(12.345_678)

    /// One event of every type, with optional fields filled.
    static let samples: [JourneyEvent] = [
        .journeyStarted(
            JourneyStarted(
                journeyID: Fixture.journeyID,
                occurredAt: at,
                environment: .prod,
                flow: Flow("humantoken"),
                purpose: .ageVerification,
                subject: Fixture.subject,
                clientReference: "order-42",
                retryPolicy: RetryPolicy(maximumAttempts: 3)
            )
        ),
        .processCreationRequested(
            ProcessCreationRequested(attempt: 1, occurredAt: at, unicoClientReference: "jrn_01-a1", trigger: .initial)),
        .processCreated(
            ProcessCreated(
                attempt: 1,
                occurredAt: at,
                processID: Fixture.process1,
                webAppToken: Fixture.sealed("w"),
                processToken: Fixture.sealed("t"),
                link: Fixture.sealed("l"),
                tokenExpiresAt: at.addingTimeInterval(300)
            )
        ),
        .processCreationFailed(
            ProcessCreationFailed(
                attempt: 1,
                occurredAt: at,
                failure: ProcessCreationFailure(httpStatus: 429, errorCode: 8, message: "rate limited", retryAfter: 2)
            )
        ),
        .tokenIssued(TokenIssued(attempt: 1, occurredAt: at, expiresAt: at.addingTimeInterval(300), reused: true)),
        .captureOpened(CaptureOpened(attempt: 1, occurredAt: at, superseded: true)),
        .callbackReceived(CallbackReceived(attempt: 1, occurredAt: at, outcome: .error(code: .tokenExpired))),
        .webhookReceived(
            WebhookReceived(
                attempt: 2,
                occurredAt: at,
                processID: Fixture.process2,
                state: "finished",
                result: "expired",
                lastEvent: "PROCESS_EVENT_EXPIRED",
                superseded: true
            )
        ),
        .resultPending(
            ResultPending(attempt: 2, occurredAt: at, processState: .created, pendingFetches: 3, nextFetchAt: at + 20)),
        .resultFetched(
            ResultFetched(
                attempt: 2,
                occurredAt: at,
                processID: Fixture.process2,
                processState: .finished,
                processResult: .ok,
                humanToken: Fixture.sealed("ht"),
                finishedAt: at - 1
            )
        ),
        .tokenExpired(TokenExpired(attempt: 1, occurredAt: at, expiresAt: at - 0.5, detectedBy: .sdkCallback)),
        .attemptFailed(AttemptFailed(attempt: 1, occurredAt: at, reason: .sdkError(.authenticationFailed), retryAt: at + 9.5)),
        .journeyCompleted(
            JourneyCompleted(
                attempt: 2, occurredAt: at, outcome: .approved, processID: Fixture.process2, humanToken: Fixture.sealed("ht"))
        ),
        .journeyAbandoned(
            JourneyAbandoned(
                attempt: 1, occurredAt: at, reason: AbandonReason(kind: .nonRetryableFailure, sdkCode: 73303, detail: "refused"))
        ),
        .retryAllowed(RetryAllowed(attempt: 1, occurredAt: at, abandonAt: at + 1800)),
        .captureClosedByUser(CaptureClosedByUser(attempt: 2, occurredAt: at)),
        .captureSessionTimedOut(CaptureSessionTimedOut(attempt: 1, occurredAt: at, superseded: true)),
        .linkIssued(LinkIssued(attempt: 2, occurredAt: at, expiresAt: at + 290)),
        .subjectErased(
            SubjectErased(
                attempt: 2, occurredAt: at, requestedBy: "api-key:abcd2345", reason: "LGPD request",
                erasedAt: at - 0.25)),
        .personalDataDisclosed(
            PersonalDataDisclosed(
                attempt: 2, occurredAt: at,
                disclosure: PersonalDataDisclosure(
                    actor: "api-key:abcd2345", keyID: "0193a5e2-7c1d-7b3e-9f00-5b1f2a3c4d5e", tenant: "acme",
                    fields: ["humanToken"], purpose: "support ticket 7", channel: "GET /v1/journeys/{id}/human-token"))),
        .journeyCancelled(
            JourneyCancelled(
                attempt: 2, occurredAt: at, reason: "order 42 withdrawn \"now\"",
                actor: "api-key:abcd2345")),
        .attemptReplaced(AttemptReplaced(attempt: 1, occurredAt: at, replacedBy: 2, reason: .newCapture)),
        .faceInferenceTimedOut(FaceInferenceTimedOut(attempt: 2, occurredAt: at)),
    ]

    @Test("samples cover every event type exactly once")
    func coverage() {
        #expect(Self.samples.map(\.eventType) == JourneyEvent.allEventTypes)
        #expect(Set(JourneyEvent.allEventTypes).count == 23)
    }

    @Test("each event type round-trips through (type, data)", arguments: samples)
    func roundTrip(event: JourneyEvent) throws {
        let encoded = try event.encoded()
        #expect(encoded.type == event.eventType)
        let decoded = try JourneyEvent(type: encoded.type, data: encoded.data)
        #expect(decoded == event)
        #expect(try decoded.encoded() == encoded, "encoding is byte-stable")
    }

    @Test("one decoder reused over every event type decodes each as a fresh one does")
    func sharedDecoder() throws {
        let decoder = EventJSON.makeDecoder()
        for _ in 0..<2 {
            for event in Self.samples {
                let encoded = try event.encoded()
                let shared = try JourneyEvent(type: encoded.type, data: encoded.data, decoder: decoder)
                #expect(shared == event)
                #expect(shared == (try JourneyEvent(type: encoded.type, data: encoded.data)))
            }
        }
        #expect {
            try JourneyEvent(type: "TokenIssued", data: Data(#"{"attempt":"one"}"#.utf8), decoder: decoder)
        } throws: { error in
            (error as? EventCodingError)?.code == .malformedEvent
        }
    }

    @Test("the stable type strings")
    func typeStrings() {
        #expect(
            JourneyEvent.allEventTypes == [
                "JourneyStarted", "ProcessCreationRequested", "ProcessCreated", "ProcessCreationFailed", "TokenIssued",
                "CaptureOpened", "CallbackReceived", "WebhookReceived", "ResultPending", "ResultFetched", "TokenExpired",
                "AttemptFailed", "JourneyCompleted", "JourneyAbandoned", "RetryAllowed", "CaptureClosedByUser",
                "CaptureSessionTimedOut", "LinkIssued", "SubjectErased", "PersonalDataDisclosed", "JourneyCancelled",
                "AttemptReplaced", "FaceInferenceTimedOut",
            ])
    }

    @Test("an unknown type is a clear error naming it")
    func unknownType() {
        #expect {
            try JourneyEvent(type: "JourneyTeleported", data: Data("{}".utf8))
        } throws: { error in
            guard let error = error as? EventCodingError else { return false }
            return error.code == .unknownEventType && error.eventType == "JourneyTeleported"
                && error.message.contains("unknown event type \"JourneyTeleported\"")
        }
    }

    @Test("data that does not match the type is malformed")
    func malformed() {
        #expect {
            try JourneyEvent(type: "TokenIssued", data: Data(#"{"attempt":"one"}"#.utf8))
        } throws: { error in
            (error as? EventCodingError)?.code == .malformedEvent
        }
    }

    @Test("JSON shape: RFC 3339 microsecond dates, callback outcome as the API writes it, sealed fields only")
    func shape() throws {
        let callback = try JourneyEvent.callbackReceived(
            CallbackReceived(attempt: 1, occurredAt: Self.at, outcome: .success(processID: Fixture.process1))
        ).encoded()
        let json = try #require(String(data: callback.data, encoding: .utf8))
        #expect(
            json
                == #"{"attempt":1,"occurredAt":"2026-11-12T08:00:12.345678Z","outcome":{"outcome":"success","processId":"proc-1"},"superseded":false}"#
        )

        let started = try #require(String(data: try Self.samples[0].encoded().data, encoding: .utf8))
        #expect(started.contains(#""documentNumber":{"ciphertext":"#))
        #expect(started.contains(#""documentType":"DUI_TYPE_BR_CPF""#))
        #expect(started.contains(#""reference":"hmac-sha256:4f2a""#))
    }

    @Test("a start records its tenant; one written before tenants has none and belongs to the default tenant")
    func tenant() throws {
        let started = try Self.samples[0].encoded()
        #expect(!String(decoding: started.data, as: UTF8.self).contains(#""tenant""#))
        let old = JourneyState().applying(try JourneyEvent(started))
        #expect(old.tenant == nil && old.tenantName == "default")
        guard case .journeyStarted(let sample) = Self.samples[0] else { Issue.record("not a start"); return }
        let withTenant = JourneyStarted(
            journeyID: sample.journeyID, occurredAt: sample.occurredAt, environment: sample.environment,
            flow: sample.flow, purpose: sample.purpose, subject: sample.subject,
            retryPolicy: sample.retryPolicy, tenant: "acme")
        let encoded = try JourneyEvent.journeyStarted(withTenant).encoded()
        #expect(String(decoding: encoded.data, as: UTF8.self).contains(#""tenant":"acme""#))
        let state = JourneyState().applying(try JourneyEvent(encoded))
        #expect(state.tenantName == "acme")
        let reloaded = try JSONDecoder().decode(JourneyState.self, from: try JSONEncoder().encode(old))
        #expect(reloaded.tenantName == "default", "a stored state of before tenants decodes")
    }

    @Test("events decided live round-trip and fold to the same state")
    func decidedEvents() throws {
        var scenario = try Scenario.captureOpened()
        try scenario.run(.expireToken(attempt: 1), at: 901.123_456_7, random: 0.37)
        try scenario.run(.issueToken, at: 912.5)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 913.25)
        try scenario.run(.issueToken, at: 914)
        try scenario.run(.issueLink, at: 914.5)
        try scenario.run(.recordCaptureOpened(attempt: 2), at: 915)
        try scenario.run(.recordCaptureSessionTimedOut(attempt: 1), at: 916)
        try scenario.run(.recordCallback(attempt: 2, outcome: .success(processID: Fixture.process2)), at: 950)
        try scenario.run(
            .recordResult(attempt: 2, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))), at: 951)

        let decoded = try scenario.events.map { try JourneyEvent($0.encoded()) }
        #expect(decoded == scenario.events)
        #expect(Journey.fold(decoded) == scenario.state)
    }
}

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test("formats in UTC with six fraction digits")
    func format() {
        #expect(RFC3339.string(from: Fixture.t0) == "2026-11-12T08:00:00.000000Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500000Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000000Z")
    }

    @Test("parses Z and offsets, with or without fractions")
    func parse() {
        #expect(RFC3339.date(from: "2026-11-12T08:00:00Z") == Fixture.t0)
        #expect(RFC3339.date(from: "2026-11-12T05:00:00-03:00") == Fixture.t0)
        #expect(RFC3339.date(from: "2026-11-12T08:00:00.25Z") == Fixture.t0.addingTimeInterval(0.25))
        #expect(RFC3339.date(from: "2026-11-12T08:00:00.123456789Z") == Fixture.t0.addingTimeInterval(0.123_456))
    }

    @Test(
        "refuses malformed text",
        arguments: [
            "", "2026-11-12", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-12T08:00:00", "2026-11-12T08:00:00.Z",
            "2026-11-12T08:00:00Zjunk",
        ])
    func malformed(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test("microsecond-rounded dates round-trip exactly")
    func roundTrip() {
        for offset in stride(from: -1e9, through: 3e9, by: 7_777_777.123_457) {
            let date = RFC3339.roundedToMicroseconds(Date(timeIntervalSince1970: offset))
            #expect(RFC3339.date(from: RFC3339.string(from: date)) == date)
        }
    }
}
