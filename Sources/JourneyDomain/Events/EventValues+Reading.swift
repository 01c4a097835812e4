import Foundation
import JSONBytes

// The readers of the event values whose `Codable` is written by hand, over a `JSONReader`: the same
// keys and the same construction as their `init(from:)`. Every other payload and value reader is
// generated (`Generated/EventReaders.swift`, by ops/gen-event-readers.sh, whose HANDWRITTEN names these).

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
