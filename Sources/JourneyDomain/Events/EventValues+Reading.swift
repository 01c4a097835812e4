import Foundation
import JSONBytes

// Readers of the values inside event payloads over a `JSONReader`: the same keys and the same
// construction as their `Codable` conformances.

extension SealedField {
    private static let keys = JSONKeys(["ciphertext", "keyID"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var ciphertext: String?, keyID: String?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            if slot == 0 { ciphertext = try r.string() } else { keyID = try r.string() }
        }
        guard let ciphertext, let keyID else { throw r.failure(.unexpectedValue) }
        self.init(ciphertext: ciphertext, keyID: keyID)
    }
}

extension SealedSubject {
    private static let keys = JSONKeys([
        "reference", "documentType", "documentNumber", "name", "friendlyName", "phone", "email", "notificationChannels",
    ])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var reference: String?, documentType: String?, documentNumber: SealedField?
        var name: SealedField?, friendlyName: SealedField?, phone: SealedField?, email: SealedField?
        var channels: [NotificationChannel]?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            let sealed = { (r: inout JSONReader) throws(JSONReadError) in try SealedField(reading: &r) }
            switch slot {
            case 0: reference = try r.string()
            case 1: documentType = try r.string()
            case 2: documentNumber = try SealedField(reading: &r)
            case 3: name = try r.optional(sealed)
            case 4: friendlyName = try r.optional(sealed)
            case 5: phone = try r.optional(sealed)
            case 6: email = try r.optional(sealed)
            default:
                var list: [NotificationChannel] = []
                try r.array { (r) throws(JSONReadError) in list.append(try r.raw(NotificationChannel.self)) }
                channels = list
            }
        }
        guard let reference, let documentType, let documentNumber, let channels else { throw r.failure(.unexpectedValue) }
        self.init(
            reference: SubjectReference(rawValue: reference), documentType: DocumentType(rawValue: documentType),
            documentNumber: documentNumber, name: name, friendlyName: friendlyName, phone: phone, email: email,
            notificationChannels: channels)
    }
}

extension RetryPolicy {
    private static let keys = JSONKeys([
        "initialInterval", "backoffCoefficient", "maximumInterval", "maximumAttempts", "jitterFraction",
        "nonRetryableCodes", "captureGrace", "abandonAfter", "linkLifetime", "maximumAge",
    ])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var initial: Double?, coefficient: Double?, maximum: Double?, attempts: Int?, jitter: Double?
        var codes: [SDKErrorCode]?, grace: Double?, abandon: Double?, link: Double?, age: Double?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            let number = { (r: inout JSONReader) throws(JSONReadError) in try r.double() }
            switch slot {
            case 0: initial = try r.double()
            case 1: coefficient = try r.double()
            case 2: maximum = try r.double()
            case 3: attempts = try r.int()
            case 4: jitter = try r.double()
            case 5:
                var list: [SDKErrorCode] = []
                try r.array { (r) throws(JSONReadError) in list.append(SDKErrorCode(rawValue: try r.int())) }
                codes = list
            case 6: grace = try r.optional(number)
            case 7: abandon = try r.optional(number)
            case 8: link = try r.optional(number)
            default: age = try r.optional(number)
            }
        }
        guard let initial, let coefficient, let maximum, let attempts, let jitter, let codes else {
            throw r.failure(.unexpectedValue)
        }
        self.init(
            initialInterval: initial, backoffCoefficient: coefficient, maximumInterval: maximum,
            maximumAttempts: attempts, jitterFraction: jitter, nonRetryableCodes: Set(codes),
            captureGrace: grace ?? 600, abandonAfter: abandon ?? 1800,
            linkLifetime: link ?? RetryPolicy.defaultLinkLifetime,
            maximumAge: age ?? RetryPolicy.defaultMaximumAge)
    }
}

extension AttemptFailureReason {
    private static let keys = JSONKeys(["kind", "sdkCode", "retryable", "retryAfter", "detail"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var kind: Kind?, sdkCode: SDKErrorCode?, retryable: Bool?, retryAfter: Double?, detail: String?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: kind = try r.raw(Kind.self)
            case 1: sdkCode = try r.optional { (r) throws(JSONReadError) in SDKErrorCode(rawValue: try r.int()) }
            case 2: retryable = try r.bool()
            case 3: retryAfter = try r.optional { (r) throws(JSONReadError) in try r.double() }
            default: detail = try r.string()
            }
        }
        guard let kind, let retryable, let detail else { throw r.failure(.unexpectedValue) }
        self.init(kind: kind, sdkCode: sdkCode, retryable: retryable, retryAfter: retryAfter, detail: detail)
    }
}

extension AbandonReason {
    private static let keys = JSONKeys(["kind", "sdkCode", "detail"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var kind: Kind?, sdkCode: SDKErrorCode?, detail: String?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: kind = try r.raw(Kind.self)
            case 1: sdkCode = try r.optional { (r) throws(JSONReadError) in SDKErrorCode(rawValue: try r.int()) }
            default: detail = try r.string()
            }
        }
        guard let kind, let detail else { throw r.failure(.unexpectedValue) }
        self.init(kind: kind, sdkCode: sdkCode, detail: detail)
    }
}

extension ProcessCreationFailure {
    private static let keys = JSONKeys(["httpStatus", "errorCode", "message", "retryable", "retryAfter"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var status: Int?, errorCode: Int?, message: String?, retryable: Bool?, retryAfter: Double?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            let int = { (r: inout JSONReader) throws(JSONReadError) in try r.int() }
            switch slot {
            case 0: status = try r.optional(int)
            case 1: errorCode = try r.optional(int)
            case 2: message = try r.string()
            case 3: retryable = try r.bool()
            default: retryAfter = try r.optional { (r) throws(JSONReadError) in try r.double() }
            }
        }
        guard let message, let retryable else { throw r.failure(.unexpectedValue) }
        self.init(httpStatus: status, errorCode: errorCode, message: message, retryable: retryable, retryAfter: retryAfter)
    }
}

extension CallbackOutcome {
    private static let keys = JSONKeys(["outcome", "processId", "code"])

    init(reading r: inout JSONReader) throws(JSONReadError) {
        var outcome: String?, processID: String?, code: Int?
        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in
            switch slot {
            case 0: outcome = try r.string()
            case 1: processID = try r.string()
            default: code = try r.int()
            }
        }
        switch outcome {
        case "success"?:
            guard let processID else { throw r.failure(.unexpectedValue) }
            self = .success(processID: ProcessID(rawValue: processID))
        case "error"?:
            guard let code else { throw r.failure(.unexpectedValue) }
            self = .error(code: SDKErrorCode(rawValue: code))
        default:
            throw r.failure(.unexpectedValue)
        }
    }
}
