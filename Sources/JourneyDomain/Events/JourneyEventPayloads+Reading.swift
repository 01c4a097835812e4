import Foundation
import JSONBytes

// Readers of each event payload over a `JSONReader` (see `JourneyEvent+Reading.swift`): the
// same keys as the synthesized `Codable` conformances, required ones required, optional ones
// absent or null; properties are set as decoded, without the public initializers' rounding.

extension JourneyStarted {
    private static let keys = JSONKeys([
        "journeyID", "attempt", "occurredAt", "environment", "flow", "purpose", "subject", "clientReference", "retryPolicy",
        "tenant", "deadline",
    ])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var journeyID: JourneyID?
        var attempt: Int?
        var occurredAt: Date?
        var environment: Environment?
        var flow: Flow?
        var purpose: Purpose?
        var subject: SealedSubject?
        var clientReference: String?
        var retryPolicy: RetryPolicy?
        var tenant: String?
        var deadline: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: journeyID = JourneyID(rawValue: try r.string())
            case 1: attempt = try r.int()
            case 2: occurredAt = try r.date()
            case 3: environment = try r.raw(Environment.self)
            case 4: flow = Flow(rawValue: try r.string())
            case 5: purpose = try r.raw(Purpose.self)
            case 6: subject = try SealedSubject(reading: &r)
            case 7: clientReference = try r.optional { (r) throws(JSONReadError) in try r.string() }
            case 8: retryPolicy = try RetryPolicy(reading: &r)
            case 9: tenant = try r.optional { (r) throws(JSONReadError) in try r.string() }
            case 10: deadline = try r.optional { (r) throws(JSONReadError) in try r.date() }
            default: break
            }
        }
        guard let journeyID, let attempt, let occurredAt, let environment, let flow, let purpose, let subject, let retryPolicy
        else { throw r.failure(.unexpectedValue) }
        self.journeyID = journeyID
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
        self.retryPolicy = retryPolicy
        self.tenant = tenant
        self.deadline = deadline
    }
}

extension ProcessCreationRequested {
    private static let keys = JSONKeys(["attempt", "occurredAt", "unicoClientReference", "trigger"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var unicoClientReference: String?
        var trigger: AttemptTrigger?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: unicoClientReference = try r.string()
            case 3: trigger = try r.raw(AttemptTrigger.self)
            default: break
            }
        }
        guard let attempt, let occurredAt, let unicoClientReference, let trigger else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.unicoClientReference = unicoClientReference
        self.trigger = trigger
    }
}

extension ProcessCreated {
    private static let keys = JSONKeys([
        "attempt", "occurredAt", "processID", "webAppToken", "processToken", "link", "tokenExpiresAt",
    ])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var processID: ProcessID?
        var webAppToken: SealedField?
        var processToken: SealedField?
        var link: SealedField?
        var tokenExpiresAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: processID = ProcessID(rawValue: try r.string())
            case 3: webAppToken = try SealedField(reading: &r)
            case 4: processToken = try r.optional { (r) throws(JSONReadError) in try SealedField(reading: &r) }
            case 5: link = try r.optional { (r) throws(JSONReadError) in try SealedField(reading: &r) }
            case 6: tokenExpiresAt = try r.date()
            default: break
            }
        }
        guard let attempt, let occurredAt, let processID, let webAppToken, let tokenExpiresAt else {
            throw r.failure(.unexpectedValue)
        }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.processID = processID
        self.webAppToken = webAppToken
        self.processToken = processToken
        self.link = link
        self.tokenExpiresAt = tokenExpiresAt
    }
}

extension ProcessCreationFailed {
    private static let keys = JSONKeys(["attempt", "occurredAt", "failure"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var failure: ProcessCreationFailure?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: failure = try ProcessCreationFailure(reading: &r)
            default: break
            }
        }
        guard let attempt, let occurredAt, let failure else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.failure = failure
    }
}

extension TokenIssued {
    private static let keys = JSONKeys(["attempt", "occurredAt", "expiresAt", "reused"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var expiresAt: Date?
        var reused: Bool?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: expiresAt = try r.date()
            case 3: reused = try r.bool()
            default: break
            }
        }
        guard let attempt, let occurredAt, let expiresAt, let reused else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
        self.reused = reused
    }
}

extension CaptureOpened {
    private static let keys = JSONKeys(["attempt", "occurredAt", "superseded"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var superseded: Bool?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: superseded = try r.bool()
            default: break
            }
        }
        guard let attempt, let occurredAt, let superseded else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.superseded = superseded
    }
}

extension CallbackReceived {
    private static let keys = JSONKeys(["attempt", "occurredAt", "outcome", "superseded"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var outcome: CallbackOutcome?
        var superseded: Bool?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: outcome = try CallbackOutcome(reading: &r)
            case 3: superseded = try r.bool()
            default: break
            }
        }
        guard let attempt, let occurredAt, let outcome, let superseded else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.outcome = outcome
        self.superseded = superseded
    }
}

extension WebhookReceived {
    private static let keys = JSONKeys(["attempt", "occurredAt", "processID", "state", "result", "lastEvent", "superseded"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var processID: ProcessID?
        var state: String?
        var result: String?
        var lastEvent: String?
        var superseded: Bool?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: processID = ProcessID(rawValue: try r.string())
            case 3: state = try r.string()
            case 4: result = try r.optional { (r) throws(JSONReadError) in try r.string() }
            case 5: lastEvent = try r.optional { (r) throws(JSONReadError) in try r.string() }
            case 6: superseded = try r.bool()
            default: break
            }
        }
        guard let attempt, let occurredAt, let processID, let state, let superseded else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.processID = processID
        self.state = state
        self.result = result
        self.lastEvent = lastEvent
        self.superseded = superseded
    }
}

extension ResultPending {
    private static let keys = JSONKeys(["attempt", "occurredAt", "processState", "pendingFetches", "nextFetchAt"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var processState: ProcessState?
        var pendingFetches: Int?
        var nextFetchAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: processState = ProcessState(rawValue: try r.string())
            case 3: pendingFetches = try r.int()
            case 4: nextFetchAt = try r.date()
            default: break
            }
        }
        guard let attempt, let occurredAt, let processState, let pendingFetches, let nextFetchAt else {
            throw r.failure(.unexpectedValue)
        }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.processState = processState
        self.pendingFetches = pendingFetches
        self.nextFetchAt = nextFetchAt
    }
}

extension ResultFetched {
    private static let keys = JSONKeys([
        "attempt", "occurredAt", "processID", "processState", "processResult", "humanToken", "finishedAt",
    ])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var processID: ProcessID?
        var processState: ProcessState?
        var processResult: ProcessResult?
        var humanToken: SealedField?
        var finishedAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: processID = ProcessID(rawValue: try r.string())
            case 3: processState = ProcessState(rawValue: try r.string())
            case 4: processResult = ProcessResult(rawValue: try r.string())
            case 5: humanToken = try r.optional { (r) throws(JSONReadError) in try SealedField(reading: &r) }
            case 6: finishedAt = try r.optional { (r) throws(JSONReadError) in try r.date() }
            default: break
            }
        }
        guard let attempt, let occurredAt, let processID, let processState, let processResult else {
            throw r.failure(.unexpectedValue)
        }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.processID = processID
        self.processState = processState
        self.processResult = processResult
        self.humanToken = humanToken
        self.finishedAt = finishedAt
    }
}

extension TokenExpired {
    private static let keys = JSONKeys(["attempt", "occurredAt", "expiresAt", "detectedBy"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var expiresAt: Date?
        var detectedBy: TokenExpiryDetection?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: expiresAt = try r.date()
            case 3: detectedBy = try r.raw(TokenExpiryDetection.self)
            default: break
            }
        }
        guard let attempt, let occurredAt, let expiresAt, let detectedBy else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
        self.detectedBy = detectedBy
    }
}
