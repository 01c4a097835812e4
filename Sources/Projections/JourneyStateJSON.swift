import Foundation
import JSONBytes
import JourneyDomain

/// A ``JourneyState`` as JSON, written by hand into ``JSONWriter``: the same bytes as its `Codable`
/// encoding through the tests' `JSONStreamEncoder` (members in declaration order, nil optionals left out,
/// dates as seconds since 2001), without the `Encoder` protocol's boxing, dynamic casts and
/// per-value allocations. A rebuild writes each state this way straight into its `COPY` text.
///
/// ``stateKeys`` / ``attemptKeys`` list the stored properties written: a test holds them equal to
/// the types' own, so a property added to the state without a line here fails a test.
enum JourneyStateJSON {
    static let stateKeys = [
        "status", "version", "journeyID", "environment", "flow", "purpose", "subject", "clientReference", "tenant",
        "retryPolicy", "startedAt", "deadline", "attempts", "lastErrorCode", "lastFailure", "outcome", "humanToken",
        "completedAt",
        "abandonedAt", "abandonReason", "subjectErasedAt", "supersededCallbacks", "webhooksReceived", "updatedAt",
    ]

    static let attemptKeys = [
        "number", "unicoClientReference", "trigger", "requestedAt", "processID", "processCreatedAt", "webAppToken",
        "processToken", "link", "tokenExpiresAt", "creationFailedAt", "creationFailure", "firstTokenIssuedAt",
        "lastTokenIssuedAt", "tokensIssued", "captureOpenedAt", "closedByUserAt", "sessionTimedOutAt",
        "faceInferenceTimedOutAt", "linkIssuedAt",
        "callbackAt", "callbackOutcome", "webhookAt", "awaitingResultSince", "pendingFetches", "nextFetchAt",
        "resultFetchedAt", "processState", "processResult", "tokenExpiredAt", "failedAt", "failureReason", "retryAt",
        "retryAllowedAt", "abandonAt", "supersededAt",
    ]

    /// The JSON text of `state`.
    static func encode(_ state: JourneyState) throws -> [UInt8] {
        var json = JSONWriter(copyEscaped: false)
        try write(state, to: &json)
        return json.bytes
    }

    static func write(_ state: JourneyState, to json: inout JSONWriter) throws {
        json.beginObject()
        json.key("status"); json.string(state.status.rawValue)
        json.key("version"); json.int(state.version)
        if let value = state.journeyID { json.key("journeyID"); json.string(value.rawValue) }
        if let value = state.environment { json.key("environment"); json.string(value.rawValue) }
        if let value = state.flow { json.key("flow"); json.string(value.rawValue) }
        if let value = state.purpose { json.key("purpose"); json.string(value.rawValue) }
        if let value = state.subject { json.key("subject"); write(value, to: &json) }
        if let value = state.clientReference { json.key("clientReference"); json.string(value) }
        if let value = state.tenant { json.key("tenant"); json.string(value) }
        json.key("retryPolicy"); try write(state.retryPolicy, to: &json)
        try date("startedAt", state.startedAt, &json)
        try date("deadline", state.deadline, &json)
        json.key("attempts")
        json.beginArray()
        for attempt in state.attempts {
            json.element()
            try write(attempt, to: &json)
        }
        json.endArray()
        if let value = state.lastErrorCode { json.key("lastErrorCode"); json.int(value.rawValue) }
        if let value = state.lastFailure { json.key("lastFailure"); try write(value, to: &json) }
        if let value = state.outcome { json.key("outcome"); json.string(value.rawValue) }
        sealed("humanToken", state.humanToken, &json)
        try date("completedAt", state.completedAt, &json)
        try date("abandonedAt", state.abandonedAt, &json)
        if let value = state.abandonReason {
            json.key("abandonReason")
            json.beginObject()
            json.key("kind"); json.string(value.kind.rawValue)
            if let code = value.sdkCode { json.key("sdkCode"); json.int(code.rawValue) }
            json.key("detail"); json.string(value.detail)
            json.endObject()
        }
        try date("subjectErasedAt", state.subjectErasedAt, &json)
        json.key("supersededCallbacks"); json.int(state.supersededCallbacks)
        json.key("webhooksReceived"); json.int(state.webhooksReceived)
        try date("updatedAt", state.updatedAt, &json)
        json.endObject()
    }

    static func write(_ attempt: AttemptState, to json: inout JSONWriter) throws {
        json.beginObject()
        json.key("number"); json.int(attempt.number)
        json.key("unicoClientReference"); json.string(attempt.unicoClientReference)
        json.key("trigger"); json.string(attempt.trigger.rawValue)
        json.key("requestedAt"); try json.double(attempt.requestedAt.timeIntervalSinceReferenceDate)
        if let value = attempt.processID { json.key("processID"); json.string(value.rawValue) }
        try date("processCreatedAt", attempt.processCreatedAt, &json)
        sealed("webAppToken", attempt.webAppToken, &json)
        sealed("processToken", attempt.processToken, &json)
        sealed("link", attempt.link, &json)
        try date("tokenExpiresAt", attempt.tokenExpiresAt, &json)
        try date("creationFailedAt", attempt.creationFailedAt, &json)
        if let value = attempt.creationFailure {
            json.key("creationFailure")
            json.beginObject()
            if let status = value.httpStatus { json.key("httpStatus"); json.int(status) }
            if let code = value.errorCode { json.key("errorCode"); json.int(code) }
            json.key("message"); json.string(value.message)
            json.key("retryable"); json.bool(value.retryable)
            if let after = value.retryAfter { json.key("retryAfter"); try json.double(after) }
            json.endObject()
        }
        try date("firstTokenIssuedAt", attempt.firstTokenIssuedAt, &json)
        try date("lastTokenIssuedAt", attempt.lastTokenIssuedAt, &json)
        json.key("tokensIssued"); json.int(attempt.tokensIssued)
        try date("captureOpenedAt", attempt.captureOpenedAt, &json)
        try date("closedByUserAt", attempt.closedByUserAt, &json)
        try date("sessionTimedOutAt", attempt.sessionTimedOutAt, &json)
        try date("faceInferenceTimedOutAt", attempt.faceInferenceTimedOutAt, &json)
        try date("linkIssuedAt", attempt.linkIssuedAt, &json)
        try date("callbackAt", attempt.callbackAt, &json)
        if let value = attempt.callbackOutcome {
            json.key("callbackOutcome")
            json.beginObject()
            switch value {
            case .success(let processID):
                json.key("outcome"); json.append("\"success\"")
                json.key("processId"); json.string(processID.rawValue)
            case .error(let code):
                json.key("outcome"); json.append("\"error\"")
                json.key("code"); json.int(code.rawValue)
            }
            json.endObject()
        }
        try date("webhookAt", attempt.webhookAt, &json)
        try date("awaitingResultSince", attempt.awaitingResultSince, &json)
        json.key("pendingFetches"); json.int(attempt.pendingFetches)
        try date("nextFetchAt", attempt.nextFetchAt, &json)
        try date("resultFetchedAt", attempt.resultFetchedAt, &json)
        if let value = attempt.processState { json.key("processState"); json.string(value.rawValue) }
        if let value = attempt.processResult { json.key("processResult"); json.string(value.rawValue) }
        try date("tokenExpiredAt", attempt.tokenExpiredAt, &json)
        try date("failedAt", attempt.failedAt, &json)
        if let value = attempt.failureReason { json.key("failureReason"); try write(value, to: &json) }
        try date("retryAt", attempt.retryAt, &json)
        try date("retryAllowedAt", attempt.retryAllowedAt, &json)
        try date("abandonAt", attempt.abandonAt, &json)
        try date("supersededAt", attempt.supersededAt, &json)
        json.endObject()
    }

    private static func write(_ subject: SealedSubject, to json: inout JSONWriter) {
        json.beginObject()
        json.key("reference"); json.string(subject.reference.rawValue)
        json.key("documentType"); json.string(subject.documentType.rawValue)
        sealed("documentNumber", subject.documentNumber, &json)
        sealed("name", subject.name, &json)
        sealed("friendlyName", subject.friendlyName, &json)
        sealed("phone", subject.phone, &json)
        sealed("email", subject.email, &json)
        json.key("notificationChannels")
        json.beginArray()
        for channel in subject.notificationChannels {
            json.element()
            json.string(channel.rawValue)
        }
        json.endArray()
        json.endObject()
    }

    /// As `RetryPolicy`'s own `encode(to:)`.
    private static func write(_ policy: RetryPolicy, to json: inout JSONWriter) throws {
        json.beginObject()
        json.key("initialInterval"); try json.double(policy.initialInterval)
        json.key("backoffCoefficient"); try json.double(policy.backoffCoefficient)
        json.key("maximumInterval"); try json.double(policy.maximumInterval)
        json.key("maximumAttempts"); json.int(policy.maximumAttempts)
        json.key("jitterFraction"); try json.double(policy.jitterFraction)
        json.key("nonRetryableCodes")
        json.beginArray()
        for code in policy.nonRetryableCodes.sorted() {
            json.element()
            json.int(code.rawValue)
        }
        json.endArray()
        json.key("captureGrace"); try json.double(policy.captureGrace)
        json.key("abandonAfter"); try json.double(policy.abandonAfter)
        if policy.linkLifetime != RetryPolicy.defaultLinkLifetime {
            json.key("linkLifetime"); try json.double(policy.linkLifetime)
        }
        if policy.maximumAge != RetryPolicy.defaultMaximumAge {
            json.key("maximumAge"); try json.double(policy.maximumAge)
        }
        json.endObject()
    }

    private static func write(_ reason: AttemptFailureReason, to json: inout JSONWriter) throws {
        json.beginObject()
        json.key("kind"); json.string(reason.kind.rawValue)
        if let code = reason.sdkCode { json.key("sdkCode"); json.int(code.rawValue) }
        json.key("retryable"); json.bool(reason.retryable)
        if let after = reason.retryAfter { json.key("retryAfter"); try json.double(after) }
        json.key("detail"); json.string(reason.detail)
        json.endObject()
    }

    private static func sealed(_ key: StaticString, _ field: SealedField?, _ json: inout JSONWriter) {
        guard let field else { return }
        json.key(key)
        json.beginObject()
        json.key("ciphertext"); json.string(field.ciphertext)
        json.key("keyID"); json.string(field.keyID)
        json.endObject()
    }

    private static func date(_ key: StaticString, _ value: Date?, _ json: inout JSONWriter) throws {
        guard let value else { return }
        json.key(key)
        try json.double(value.timeIntervalSinceReferenceDate)
    }
}
