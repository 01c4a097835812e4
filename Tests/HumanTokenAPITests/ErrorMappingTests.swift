import Foundation
import Testing
@testable import HumanTokenAPI

/// How Unico's error answers become ``HumanTokenAPIError``s, on canned bodies.
@Suite("Error mapping")
struct ErrorMappingTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> HTTPExchange.Response {
        HTTPExchange.Response(status: status, headers: headers, body: Data(body.utf8))
    }

    @Test(
        arguments: [
            ("person.duiValue must contain only digits", "person.duiValue"),
            ("invalid value for field 'purpose'", "purpose"),
            ("duiValue: 123.456.789-00 is not valid", "person.duiValue"),
            ("friendly_name longer than 50 characters", "person.friendlyName"),
            ("person.notifications[0].notificationChannel: unknown channel", "person.notifications[0].notificationChannel"),
            ("the channel in person.notifications[1].notificationChannel is unknown", "person.notifications.notificationChannel"),
            ("body: must be a JSON object", "body"),
            ("expiresIn must look like 3600s", "expiresIn"),
            ("missing required field: flow", "flow"),
            ("callbackUri is required", "callbackUri"),
            ("something went wrong", nil),
        ] as [(String, String?)])
    func invalidArgumentNamesTheField(message: String, field: String?) {
        let body = #"{"error":{"code":3,"message":"\#(message)"}}"#
        let error = HumanTokenAPIError.fromAPI(response(400, body), now: now, what: "Create Process")
        #expect(error.code == .invalidArgument)
        #expect(error.field == field)
        #expect(error.unicoCode == "3")
        #expect(error.status == 400)
    }

    @Test func structuredFieldViolationsWin() {
        let body = #"{"error":{"code":3,"message":"flow is fine","details":[{"fieldViolations":[{"field":"person.email"}]}]}}"#
        #expect(HumanTokenAPIError.fromAPI(response(400, body), now: now, what: "x").field == "person.email")
    }

    @Test func messagesAreNeverEchoed() {
        let body = #"{"error":{"code":3,"message":"person.duiValue 12345678900 for Maria Silva is invalid"}}"#
        let error = HumanTokenAPIError.fromAPI(response(400, body), now: now, what: "Create Process")
        #expect(error.field == "person.duiValue")
        #expect(!error.description.contains("12345678900"))
        #expect(!error.description.contains("Maria"))
    }

    @Test(arguments: [
        (401, HumanTokenAPIError.Code.unauthorized), (403, .unauthorized), (404, .notFound), (429, .rateLimited),
        (500, .serverError), (503, .serverError), (409, .invalidResponse),
    ])
    func statusesMapToCodes(status: Int, code: HumanTokenAPIError.Code) {
        let error = HumanTokenAPIError.fromAPI(response(status, #"{"error":{"code":5,"message":"x"}}"#), now: now, what: "x")
        #expect(error.code == code)
        #expect(error.status == status)
    }

    @Test func retryAfterInSecondsOrAsADate() {
        let limited = HumanTokenAPIError.fromAPI(response(429, "", headers: ["retry-after": "7"]), now: now, what: "x")
        #expect(limited.retryAfter == 7)
        #expect(HumanTokenAPIError.retryAfter(nil, now: now) == 1)
        #expect(HumanTokenAPIError.retryAfter("soon", now: now) == 1)
        #expect(HumanTokenAPIError.retryAfter("Sun, 15 Jun 2025 15:07:10 GMT", now: now) == 30)
    }

    @Test func retryAfterIsCappedAtAMinute() {
        // A huge or far-off Retry-After would stop the tenant's calls in every process for as long.
        let limited = HumanTokenAPIError.fromAPI(response(429, "", headers: ["retry-after": "86400"]), now: now, what: "x")
        #expect(limited.retryAfter == HumanTokenAPIError.maximumRetryAfter)
        #expect(HumanTokenAPIError.maximumRetryAfter == 60)
        #expect(HumanTokenAPIError.retryAfter("99999999999999999999999", now: now) == 60)
        #expect(HumanTokenAPIError.retryAfter("Sun, 15 Jun 2099 15:07:10 GMT", now: now) == 60)
        #expect(HumanTokenAPIError.retryAfter("60", now: now) == 60)
    }

    @Test(arguments: [
        ("1.0.1", "wrong tenant"), ("1.2.4", "assertion expired"), ("1.2.5", "assertion signature not valid"),
        ("1.2.7", "assertion already used"), ("1.2.22", "assertion has extra claims"),
    ])
    func tokenEndpointCodes(code: String, meaning: String) {
        let body = #"{"error":"server_error","error_description":"The assertion was refused. \#(code)"}"#
        let error = HumanTokenAPIError.fromTokenEndpoint(response(401, body), now: now)
        #expect(error.code == .unauthorized)
        #expect(error.unicoCode == code)
        #expect(error.message.contains(meaning))
    }

    @Test func tokenEndpointOverloadIsNotUnauthorized() {
        #expect(HumanTokenAPIError.fromTokenEndpoint(response(503, "oops"), now: now).code == .serverError)
        let limited = HumanTokenAPIError.fromTokenEndpoint(response(429, "", headers: ["Retry-After": "3"]), now: now)
        #expect(limited.code == .rateLimited)
        #expect(limited.retryAfter == 3)
    }
}
