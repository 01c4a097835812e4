import Foundation
import JSONBytes
import JourneyDomain
import Postgres
@testable import Projections
import Testing

/// The rebuild's hand-written writers against the `Codable` path they replace, over a wide set of
/// states: every status, every optional set and unset, escapes and unicode in every text.
@Suite struct JourneyStateJSONTests {
    static let texts = ["plain", "", "tab\tline\nreturn\rquote\"back\\slash/", "\u{1}\u{1f}\u{7f}control", "ação 🧪 日本"]
    static let dates = [
        Date(timeIntervalSince1970: 1_795_000_000), Date(timeIntervalSince1970: 1_795_000_000.123456),
        Date(timeIntervalSinceReferenceDate: -0.25), Date(timeIntervalSince1970: -86_400.5),
        Date(timeIntervalSince1970: 1_795_000_000.000_000_4), Date(timeIntervalSinceReferenceDate: 1e-7),
    ]

    static func field(_ index: Int) -> SealedField {
        SealedField(ciphertext: texts[index % texts.count] + "=", keyID: "k-\(index)")
    }

    static func attempt(_ number: Int, full: Bool, variant: Int) -> AttemptState {
        let text = texts[variant % texts.count]
        let date = dates[variant % dates.count]
        var attempt = AttemptState(
            number: number, unicoClientReference: "ucr-\(text)",
            trigger: AttemptTrigger.allCases[variant % AttemptTrigger.allCases.count],
            requestedAt: date)
        guard full else { return attempt }
        attempt.processID = ProcessID("p-\(text)")
        attempt.processCreatedAt = date.addingTimeInterval(0.5)
        attempt.webAppToken = field(variant)
        attempt.processToken = field(variant + 1)
        attempt.link = field(variant + 2)
        attempt.tokenExpiresAt = date.addingTimeInterval(300)
        attempt.creationFailedAt = date.addingTimeInterval(1)
        attempt.creationFailure = ProcessCreationFailure(
            httpStatus: variant % 2 == 0 ? nil : 503,
            errorCode: variant % 3 == 0 ? nil : 42, message: "m \(text)",
            retryAfter: variant % 2 == 0 ? 1.5 : nil)
        attempt.firstTokenIssuedAt = date.addingTimeInterval(2)
        attempt.lastTokenIssuedAt = date.addingTimeInterval(3)
        attempt.tokensIssued = variant + 2
        attempt.captureOpenedAt = date.addingTimeInterval(4)
        attempt.closedByUserAt = date.addingTimeInterval(5)
        attempt.sessionTimedOutAt = date.addingTimeInterval(6)
        attempt.linkIssuedAt = date.addingTimeInterval(7)
        attempt.callbackAt = date.addingTimeInterval(8)
        attempt.callbackOutcome = variant % 2 == 0 ? .error(code: .tokenExpired) : .success(processID: ProcessID("p-\(text)"))
        attempt.webhookAt = date.addingTimeInterval(9)
        attempt.awaitingResultSince = date.addingTimeInterval(10)
        attempt.pendingFetches = variant
        attempt.nextFetchAt = date.addingTimeInterval(11)
        attempt.resultFetchedAt = date.addingTimeInterval(12)
        attempt.processState = ProcessState("PROCESS_STATE_\(text)")
        attempt.processResult = ProcessResult("PROCESS_RESULT_\(text)")
        attempt.tokenExpiredAt = date.addingTimeInterval(13)
        attempt.failedAt = date.addingTimeInterval(14)
        attempt.failureReason = AttemptFailureReason(
            kind: AttemptFailureReason.Kind.allCases[variant % AttemptFailureReason.Kind.allCases.count],
            sdkCode: variant % 2 == 0 ? .authenticationFailed : nil, retryable: variant % 2 == 0,
            retryAfter: variant % 3 == 0 ? 30 : nil, detail: "d \(text)")
        attempt.retryAt = date.addingTimeInterval(15)
        attempt.retryAllowedAt = date.addingTimeInterval(16)
        attempt.abandonAt = date.addingTimeInterval(17)
        attempt.supersededAt = date.addingTimeInterval(18)
        return attempt
    }

    /// Per status, an almost empty state and a full one (several text, date and number variants).
    static func states() throws -> [JourneyState] {
        var out = try RebuildEncodingTests.states()
        out.append(JourneyState())
        for (variant, status) in JourneyStatus.allCases.enumerated() {
            var sparse = JourneyState()
            sparse.status = status
            sparse.version = variant
            sparse.attempts = [attempt(1, full: false, variant: variant)]
            out.append(sparse)
            let text = texts[variant % texts.count]
            let date = dates[variant % dates.count]
            var full = JourneyState()
            full.status = status
            full.version = variant * 1000 + 7
            full.journeyID = JourneyID("j-\(text)")
            full.environment = Environment.allCases[variant % Environment.allCases.count]
            full.flow = Flow("flow \(text)")
            full.purpose = Purpose.allCases[variant % Purpose.allCases.count]
            full.subject = SealedSubject(
                reference: SubjectReference("ref \(text)"), documentType: .brCPF,
                documentNumber: field(variant), name: field(variant + 1),
                friendlyName: variant % 2 == 0 ? field(variant + 2) : nil, phone: field(variant + 3),
                email: variant % 3 == 0 ? nil : field(variant + 4),
                notificationChannels: Array(NotificationChannel.allCases.prefix(variant % 4)))
            full.clientReference = "client \(text)"
            full.tenant = variant % 2 == 0 ? nil : "tenant \(text)"
            full.retryPolicy =
                variant % 2 == 0
                ? .standard
                : RetryPolicy(
                    initialInterval: 2.5, backoffCoefficient: 1.5, maximumInterval: 1e6, maximumAttempts: 9,
                    jitterFraction: 0.1, nonRetryableCodes: [.tokenRejected, .simulator, .emptyToken],
                    captureGrace: 0.000_001, abandonAfter: 86_400 * 365)
            full.startedAt = date
            full.attempts = (1...(variant % 3 + 1)).map { attempt($0, full: $0 % 2 == 1, variant: variant + $0) }
            full.lastErrorCode = SDKErrorCode(rawValue: -variant)
            full.lastFailure = .sdkError(.captureRefused)
            full.outcome = JourneyOutcome.allCases[variant % JourneyOutcome.allCases.count]
            full.humanToken = field(variant + 5)
            full.completedAt = date.addingTimeInterval(100)
            full.abandonedAt = date.addingTimeInterval(101)
            full.abandonReason = AbandonReason(
                kind: AbandonReason.Kind.allCases[variant % AbandonReason.Kind.allCases.count],
                sdkCode: variant % 2 == 0 ? nil : .tokenExpired, detail: "a \(text)")
            full.subjectErasedAt = date.addingTimeInterval(102)
            full.supersededCallbacks = variant
            full.webhooksReceived = Int.max - variant
            full.updatedAt = date.addingTimeInterval(103)
            out.append(full)
        }
        return out
    }

    @Test func theWrittenJSONIsTheStreamedCodableJSONAndDecodesToAnEqualState() throws {
        let states = try Self.states()
        #expect(states.count > 40)
        for state in states {
            let written = try JourneyStateJSON.encode(state)
            #expect(
                String(decoding: written, as: UTF8.self) == String(decoding: try JSONStreamEncoder.encode(state), as: UTF8.self))
            #expect(try JSONDecoder().decode(JourneyState.self, from: Data(written)) == state)
        }
    }

    @Test func theWriterKnowsEveryStoredPropertyOfTheState() {
        // A property added to JourneyState or AttemptState needs its line in JourneyStateJSON.
        let state = Mirror(reflecting: JourneyState()).children.compactMap(\.label)
        let attempt = Mirror(reflecting: Self.attempt(1, full: false, variant: 0)).children.compactMap(\.label)
        #expect(state == JourneyStateJSON.stateKeys)
        #expect(attempt == JourneyStateJSON.attemptKeys)
    }

    @Test func copyEscapedJSONIsTheJSONEscapedForCopy() throws {
        for state in try Self.states() {
            var json = JSONWriter(copyEscaped: true)
            try JourneyStateJSON.write(state, to: &json)
            var reference = PostgresCopyText()
            reference.append(String(decoding: try JourneyStateJSON.encode(state), as: UTF8.self))
            #expect(json.bytes == reference.bytes)
        }
    }

    @Test func bulkEscapingIsTheByteByByteEscaping() {
        for text in Self.texts + ["\\\\", "\t", "a\nb", "\r\n\t\\x"] {
            var bulk = PostgresCopyText()
            var single = PostgresCopyText()
            bulk.append(text)
            single.appendEscaped(Array(text.utf8))
            bulk.appendPreEscaped { $0.append(contentsOf: "pre".utf8) }
            single.appendEscaped(Array("pre".utf8))
            bulk.endRow()
            single.endRow()
            #expect(bulk.bytes == single.bytes)
        }
    }
}
