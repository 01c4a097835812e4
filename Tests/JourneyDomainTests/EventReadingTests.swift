import Foundation
@testable import JourneyDomain
import Testing

/// The byte-level event readers (generated, and the hand-written ones of custom `Codable` values)
/// against the Codable decoder: equal events, or the same error.
@Suite("Event reading (byte-level readers)")
struct EventReadingTests {
    /// Both paths over `bytes`: equal events, or errors with the same code, type and message.
    /// Returns whether the reader decided by itself (without falling back).
    @discardableResult
    static func agree(_ type: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let codable = Result { () throws(EventCodingError) in try JourneyEvent(type: type, data: Data(bytes)) }
        let fast = Result { () throws(EventCodingError) in
            try JourneyEvent(type: type, utf8: bytes, decoder: EventJSON.makeDecoder())
        }
        switch (codable, fast) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(type): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(type): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        default:
            Issue.record(
                "paths disagree on \(type) \(String(decoding: bytes, as: UTF8.self)): \(codable) vs \(fast)",
                sourceLocation: sourceLocation)
        }
        return decidedAlone(type, bytes)
    }

    @discardableResult
    static func agree(_ type: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        agree(type, Array(json.utf8), sourceLocation: sourceLocation)
    }

    /// The reader alone accepted the bytes (no fallback to the Codable path).
    static func decidedAlone(_ type: String, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { JourneyEvent.read(type: type, utf8: $0) != nil }
    }

    /// `json` as PostgreSQL prints `jsonb`: a blank after each `:` and `,` outside strings.
    static func jsonbStyle(_ json: String) -> String {
        var out = ""
        var inString = false, escaped = false
        for character in json {
            out.append(character)
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == ":" || character == "," {
                out.append(" ")
            }
        }
        return out
    }

    static let samples = EventCodingTests.samples

    @Test("every event type, as the encoder writes it and as jsonb prints it, is read alone and equal", arguments: samples)
    func everyType(event: JourneyEvent) throws {
        let encoded = try event.encoded()
        let compact = String(decoding: encoded.data, as: UTF8.self)
        for json in [compact, Self.jsonbStyle(compact), " \n\t" + Self.jsonbStyle(compact) + "\r\n "] {
            #expect(Self.agree(encoded.type, json), "the reader decided \(json) alone")
            #expect(try JourneyEvent(type: encoded.type, text: json) == event)
        }
    }

    @Test("events decided live are read alone, equal")
    func decided() throws {
        var scenario = try Scenario.captureOpened()
        try scenario.run(.expireToken(attempt: 1), at: 901.123_456_7, random: 0.37)
        try scenario.run(.issueToken, at: 912.5)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 913.25)
        try scenario.run(.recordCallback(attempt: 2, outcome: .success(processID: Fixture.process2)), at: 950)
        for event in scenario.events {
            let encoded = try event.encoded()
            #expect(Self.agree(encoded.type, Array(encoded.data)))
        }
    }

    static let at = #""occurredAt":"2026-11-12T08:00:12.345678Z""#
    static let field = #"{"ciphertext":"c","keyID":"k"}"#
    static let policy =
        #"{"backoffCoefficient":2,"initialInterval":10,"jitterFraction":0.2,"maximumAttempts":5,"maximumInterval":300,"nonRetryableCodes":[73006,73203]}"#
    static let subject =
        #"{"documentNumber":\#(field),"documentType":"DUI_TYPE_BR_CPF","notificationChannels":["NOTIFICATION_CHANNEL_SMS"],"reference":"r"}"#

    /// Older shapes and optional fields absent or null: each read alone, equal.
    static let optionalShapes: [(String, String)] = [
        (
            "JourneyStarted",
            #"{"attempt":0,\#(at),"environment":"UAT","flow":"f","journeyID":"j","purpose":"creditprocess","retryPolicy":\#(policy),"subject":\#(subject)}"#
        ),
        (
            "JourneyStarted",
            #"{"attempt":0,"clientReference":null,\#(at),"environment":"PROD","flow":"f","journeyID":"j","purpose":"carpurchase","retryPolicy":{"abandonAfter":null,"backoffCoefficient":1.5,"captureGrace":12.25,"initialInterval":0.5,"jitterFraction":0,"maximumAttempts":1,"maximumInterval":1e3,"nonRetryableCodes":[]},"subject":{"documentNumber":\#(field),"documentType":"X","email":null,"friendlyName":\#(field),"name":null,"notificationChannels":[],"phone":\#(field),"reference":"r"},"tenant":null}"#
        ),
        (
            "JourneyStarted",
            #"{"attempt":0,"clientReference":"c",\#(at),"environment":"UAT","flow":"f","journeyID":"j","purpose":"ageverification","retryPolicy":\#(policy),"subject":\#(subject),"tenant":"acme"}"#
        ),
        (
            "ProcessCreated",
            #"{"attempt":1,\#(at),"processID":"p","tokenExpiresAt":"2026-11-12T08:05:00Z","webAppToken":\#(field)}"#
        ),
        (
            "ProcessCreated",
            #"{"attempt":1,"link":null,\#(at),"processID":"p","processToken":null,"tokenExpiresAt":"2026-11-12T05:05:00.5-03:00","webAppToken":\#(field)}"#
        ),
        ("ProcessCreationFailed", #"{"attempt":1,"failure":{"httpStatus":null,"message":"timeout","retryable":true},\#(at)}"#),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"errorCode":null,"httpStatus":503,"message":"m","retryAfter":2.5,"retryable":false},\#(at)}"#
        ),
        ("CallbackReceived", #"{"attempt":1,\#(at),"outcome":{"code":73305,"outcome":"error"},"superseded":false}"#),
        ("CallbackReceived", #"{"attempt":1,\#(at),"outcome":{"outcome":"success","processId":"p","code":1},"superseded":true}"#),
        ("WebhookReceived", #"{"attempt":1,\#(at),"processID":"p","state":"s","superseded":false}"#),
        (
            "WebhookReceived",
            #"{"attempt":1,"lastEvent":null,\#(at),"processID":"p","result":null,"state":"s","superseded":false}"#
        ),
        (
            "ResultFetched",
            #"{"attempt":2,\#(at),"processID":"p","processResult":"PROCESS_RESULT_NEW","processState":"PROCESS_STATE_X"}"#
        ),
        (
            "ResultFetched",
            #"{"attempt":2,"finishedAt":null,"humanToken":null,\#(at),"processID":"p","processResult":"r","processState":"s"}"#
        ),
        ("AttemptFailed", #"{"attempt":1,\#(at),"reason":{"detail":"d","kind":"tokenExpired","retryable":true}}"#),
        (
            "AttemptFailed",
            #"{"attempt":1,\#(at),"reason":{"detail":"d","kind":"processCreationFailed","retryAfter":null,"retryable":false,"sdkCode":null},"retryAt":null}"#
        ),
        ("JourneyCompleted", #"{"attempt":1,\#(at),"outcome":"failed","processID":"p"}"#),
        ("JourneyAbandoned", #"{"attempt":1,\#(at),"reason":{"detail":"d","kind":"userAbsent","sdkCode":null}}"#),
        ("JourneyAbandoned", #"{"attempt":1,\#(at),"reason":{"detail":"order withdrawn","kind":"cancelled"}}"#),
        ("JourneyCancelled", #"{"actor":"cli","attempt":0,\#(at),"reason":"r"}"#),
        ("JourneyCancelled", #"{"actor":"cli","attempt":0,\#(at),"reason":"r","extra":null}"#),
        ("PersonalDataDisclosed", #"{"actor":"cli","attempt":0,"channel":"c","fields":[],\#(at),"purpose":"p"}"#),
        (
            "PersonalDataDisclosed",
            #"{"actor":"cli","attempt":0,"channel":"c","fields":["a","b"],"keyId":null,\#(at),"purpose":"p","tenant":null}"#
        ),
    ]

    @Test("older shapes and optional fields absent or null", arguments: optionalShapes)
    func optionals(type: String, json: String) {
        #expect(Self.agree(type, json))
        #expect(Self.agree(type, Self.jsonbStyle(json)))
    }

    /// Strings with escapes and non-ASCII text, numbers at the edges, unknown keys: read alone, equal.
    static let edgeValues: [(String, String)] = [
        (
            "SubjectErased",
            #"{"attempt":2,"erasedAt":"2026-11-12T08:00:00Z",\#(at),"reason":"q\"b\\s\/n\nr\rt\tb\bf\f","requestedBy":"\u00e9\u4e2d\ud83d\ude00 a\u0000z"}"#
        ),
        (
            "SubjectErased",
            #"{"attempt":2,"erasedAt":"2026-11-12T08:00:00Z",\#(at),"reason":"ação 中文 😀 \u007f","requestedBy":"\uD83D\uDE00"}"#
        ),
        ("TokenIssued", #"{"attempt":9223372036854775807,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":-9223372036854775808,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":true}"#),
        (
            "ResultPending",
            #"{"attempt":0,"nextFetchAt":"2026-11-12t08:00:00.123456789z",\#(at),"pendingFetches":-3,"processState":""}"#
        ),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"httpStatus":429,"message":"","retryAfter":1.7976931348623157e308,"retryable":true},\#(at)}"#
        ),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"httpStatus":429,"message":"","retryAfter":0.1e-5,"retryable":true},\#(at)}"#
        ),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"httpStatus":429,"message":"","retryAfter":123456789.123456789123,"retryable":true},\#(at)}"#
        ),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"httpStatus":429,"message":"","retryAfter":-0,"retryable":true},\#(at)}"#
        ),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"httpStatus":429,"message":"","retryAfter":5E+2,"retryable":true},\#(at)}"#
        ),
        (
            "LinkIssued",
            #"{"attempt":2,"expiresAt":"2026-11-12T08:00:00Z","extra":{"a":[1,-2.5e3,true,false,null,"x\u0041",{"b":{}}],"c":[]},\#(at),"z":"\ud83d\ude00"}"#
        ),
        ("RetryAllowed", #"{"abandonAt":"2026-11-12T08:30:00Z","attempt":1,\#(at),"ignored":123456789012345678901234567890}"#),
    ]

    @Test("escapes, unicode, big numbers and unknown keys", arguments: edgeValues)
    func edges(type: String, json: String) {
        #expect(Self.agree(type, json))
        #expect(Self.agree(type, Self.jsonbStyle(json)))
    }

    /// Input the reader leaves to the Codable decoder (valid or not): both paths end the same.
    static let deferred: [(String, String)] = [
        ("TokenIssued", #"{"attempt":9223372036854775808,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":1.0,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":1e2,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":-0,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":01,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":+1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":"1","expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":null,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":0}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"tomorrow",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":1,"attempt":2,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false,"x":1,"x":2}"#),
        ("TokenIssued", #"{"attem\u0070t":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false} x"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false,}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false"#),
        ("TokenIssued", #"{"attempt":1 "expiresAt":"2026-11-12T08:00:00Z"}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false,"x":NaN}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false,"x":[1,]}"#),
        ("TokenIssued", #"{"attempt":1,"expiresAt":"2026-11-12T08:00:00Z",\#(at),"reused":false,"x":"\x"}"#),
        ("TokenIssued", #"[1]"#),
        ("TokenIssued", #""#),
        ("TokenIssued", #"null"#),
        ("TokenIssued", "{\"attempt\":1,\"expiresAt\":\"2026-11-12T08:00:00Z\",\(at),\"reused\":false,\"x\":\"a\u{1}b\"}"),
        ("SubjectErased", #"{"attempt":2,"erasedAt":"2026-11-12T08:00:00Z",\#(at),"reason":"\ud800","requestedBy":"x"}"#),
        ("SubjectErased", #"{"attempt":2,"erasedAt":"2026-11-12T08:00:00Z",\#(at),"reason":"\udc00\ud800","requestedBy":"x"}"#),
        ("SubjectErased", #"{"attempt":2,"erasedAt":"2026-11-12T08:00:00Z",\#(at),"reason":"\u12","requestedBy":"x"}"#),
        (
            "JourneyStarted",
            #"{"attempt":0,\#(at),"environment":"DEV","flow":"f","journeyID":"j","purpose":"creditprocess","retryPolicy":\#(policy),"subject":\#(subject)}"#
        ),
        (
            "JourneyStarted",
            #"{"attempt":0,\#(at),"environment":"UAT","flow":"f","journeyID":"j","purpose":"creditprocess","retryPolicy":{"initialInterval":10},"subject":\#(subject)}"#
        ),
        (
            "JourneyStarted",
            #"{"attempt":0,\#(at),"environment":"UAT","flow":"f","journeyID":"j","purpose":"creditprocess","retryPolicy":\#(policy),"subject":{"documentNumber":\#(field),"documentType":"X","reference":"r"}}"#
        ),
        (
            "ProcessCreationFailed",
            #"{"attempt":1,"failure":{"httpStatus":429,"message":"","retryAfter":1e400,"retryable":true},\#(at)}"#
        ),
        ("CallbackReceived", #"{"attempt":1,\#(at),"outcome":{"outcome":"maybe"},"superseded":false}"#),
        ("CallbackReceived", #"{"attempt":1,\#(at),"outcome":{"outcome":"success","code":73305},"superseded":false}"#),
        (
            "CallbackReceived",
            #"{"attempt":1,\#(at),"outcome":{"outcome":"success","processId":"p","code":"x"},"superseded":false}"#
        ),
        ("CaptureOpened", #"{"attempt":1,\#(at)}"#),
        ("JourneyTeleported", #"{}"#),
    ]

    @Test("input the reader leaves to the Codable decoder ends the same way", arguments: deferred)
    func deferredInput(type: String, json: String) {
        Self.agree(type, json)
    }

    @Test("invalid UTF-8 and deep nesting end the same way")
    func bytes() {
        let head = Array(#"{"attempt":2,"erasedAt":"2026-11-12T08:00:00Z",\#(Self.at),"requestedBy":"x","reason":""#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            #expect(!Self.agree("SubjectErased", head + bad + Array(#""}"#.utf8)))
        }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(!Self.agree("RetryAllowed", #"{"abandonAt":"2026-11-12T08:30:00Z","attempt":1,\#(Self.at),"x":\#(deep)}"#))
    }

    @Test("a malformed event is the Codable path's error: malformed_event naming the type")
    func malformedError() {
        #expect {
            try JourneyEvent(type: "TokenIssued", text: #"{"attempt":"one"}"#)
        } throws: { error in
            guard let error = error as? EventCodingError else { return false }
            return error.code == .malformedEvent && error.eventType == "TokenIssued"
        }
        #expect {
            try JourneyEvent(type: "JourneyTeleported", text: "{}")
        } throws: { error in
            (error as? EventCodingError)?.code == .unknownEventType
        }
    }
}
