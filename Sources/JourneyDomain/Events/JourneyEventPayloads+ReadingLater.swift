import Foundation
import JSONBytes

// Readers of the payloads of a journey's later events (failures, endings, retries, sessions, links,
// erasure, disclosure, cancellation, replacement, face inference): see `JourneyEventPayloads+Reading.swift`.

extension AttemptFailed {
    private static let keys = JSONKeys(["attempt", "occurredAt", "reason", "retryAt"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var reason: AttemptFailureReason?
        var retryAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: reason = try AttemptFailureReason(reading: &r)
            case 3: retryAt = try r.optional { (r) throws(JSONReadError) in try r.date() }
            default: break
            }
        }
        guard let attempt, let occurredAt, let reason else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.reason = reason
        self.retryAt = retryAt
    }
}

extension JourneyCompleted {
    private static let keys = JSONKeys(["attempt", "occurredAt", "outcome", "processID", "humanToken"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var outcome: JourneyOutcome?
        var processID: ProcessID?
        var humanToken: SealedField?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: outcome = try r.raw(JourneyOutcome.self)
            case 3: processID = ProcessID(rawValue: try r.string())
            case 4: humanToken = try r.optional { (r) throws(JSONReadError) in try SealedField(reading: &r) }
            default: break
            }
        }
        guard let attempt, let occurredAt, let outcome, let processID else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.outcome = outcome
        self.processID = processID
        self.humanToken = humanToken
    }
}

extension JourneyAbandoned {
    private static let keys = JSONKeys(["attempt", "occurredAt", "reason"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var reason: AbandonReason?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: reason = try AbandonReason(reading: &r)
            default: break
            }
        }
        guard let attempt, let occurredAt, let reason else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.reason = reason
    }
}

extension RetryAllowed {
    private static let keys = JSONKeys(["attempt", "occurredAt", "abandonAt"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var abandonAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: abandonAt = try r.date()
            default: break
            }
        }
        guard let attempt, let occurredAt, let abandonAt else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.abandonAt = abandonAt
    }
}

extension CaptureClosedByUser {
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

extension CaptureSessionTimedOut {
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

extension LinkIssued {
    private static let keys = JSONKeys(["attempt", "occurredAt", "expiresAt"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var expiresAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: expiresAt = try r.date()
            default: break
            }
        }
        guard let attempt, let occurredAt, let expiresAt else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
    }
}

extension SubjectErased {
    private static let keys = JSONKeys(["attempt", "occurredAt", "requestedBy", "reason", "erasedAt"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var requestedBy: String?
        var reason: String?
        var erasedAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: requestedBy = try r.string()
            case 3: reason = try r.string()
            case 4: erasedAt = try r.date()
            default: break
            }
        }
        guard let attempt, let occurredAt, let requestedBy, let reason, let erasedAt else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.requestedBy = requestedBy
        self.reason = reason
        self.erasedAt = erasedAt
    }
}

extension PersonalDataDisclosed {
    private static let keys = JSONKeys(["attempt", "occurredAt", "actor", "keyId", "tenant", "fields", "purpose", "channel"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var actor: String?
        var keyId: String?
        var tenant: String?
        var fields: [String]?
        var purpose: String?
        var channel: String?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: actor = try r.string()
            case 3: keyId = try r.optional { (r) throws(JSONReadError) in try r.string() }
            case 4: tenant = try r.optional { (r) throws(JSONReadError) in try r.string() }
            case 5: fields = try r.strings()
            case 6: purpose = try r.string()
            case 7: channel = try r.string()
            default: break
            }
        }
        guard let attempt, let occurredAt, let actor, let fields, let purpose, let channel else {
            throw r.failure(.unexpectedValue)
        }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.actor = actor
        self.keyId = keyId
        self.tenant = tenant
        self.fields = fields
        self.purpose = purpose
        self.channel = channel
    }
}

extension JourneyCancelled {
    private static let keys = JSONKeys(["attempt", "occurredAt", "reason", "actor"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var reason: String?
        var actor: String?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: reason = try r.string()
            case 3: actor = try r.string()
            default: break
            }
        }
        guard let attempt, let occurredAt, let reason, let actor else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.reason = reason
        self.actor = actor
    }
}

extension AttemptReplaced {
    private static let keys = JSONKeys(["attempt", "occurredAt", "replacedBy", "reason"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        var replacedBy: Int?
        var reason: Reason?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            case 2: replacedBy = try r.int()
            case 3: reason = Reason(rawValue: try r.string())
            default: break
            }
        }
        guard let attempt, let occurredAt, let replacedBy, let reason else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.replacedBy = replacedBy
        self.reason = reason
    }
}

extension FaceInferenceTimedOut {
    private static let keys = JSONKeys(["attempt", "occurredAt"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var attempt: Int?
        var occurredAt: Date?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: attempt = try r.int()
            case 1: occurredAt = try r.date()
            default: break
            }
        }
        guard let attempt, let occurredAt else { throw r.failure(.unexpectedValue) }
        self.attempt = attempt
        self.occurredAt = occurredAt
    }
}
