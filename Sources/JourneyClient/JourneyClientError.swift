import Foundation

/// Why a call of ``JourneyClient`` failed.
///
/// For an answer of the service (``Kind-swift.enum/problem``), ``code`` is the stable `code` of its
/// `application/problem+json` body (e.g. `wrong_journey`, `journey_not_found`, `invalid_token`,
/// `unico_rate_limited`), ``status`` the HTTP status and ``retryAfter`` the `Retry-After` header.
/// Branch on ``code``, never on ``detail`` (human-readable, may change).
public struct JourneyClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the failure came from.
    public enum Kind: String, Sendable, Hashable {
        /// The service answered with a problem (any non-2xx status).
        case problem
        /// No answer: offline, timeout, TLS, cancelled.
        case transport
        /// A 2xx answer whose body could not be decoded.
        case invalidResponse
    }

    /// Stable problem codes the journey routes answer with (not exhaustive: compare ``code`` to these).
    public enum Code {
        /// 403: the client token belongs to another journey.
        public static let wrongJourney = "wrong_journey"
        /// 401: no client token, or one that is not valid.
        public static let invalidToken = "invalid_token"
        /// 401: the client token expired; the backend must give the app a new one.
        public static let tokenExpired = "token_expired"
        /// 404: no journey has this id.
        public static let journeyNotFound = "journey_not_found"
        /// 409: the report is not allowed in the journey's current status.
        public static let invalidTransition = "invalid_transition"
        /// 409: a fresh process is needed but the retry policy allows no more attempts.
        public static let attemptsExhausted = "attempts_exhausted"
        /// 409: the fresh process is still being created; retry shortly.
        public static let processCreationPending = "process_creation_pending"
        /// 422: a field of the request is invalid (see `extra["field"]`).
        public static let validationFailed = "validation_failed"
        /// 429 with `Retry-After`: Unico's rate limit.
        public static let unicoRateLimited = "unico_rate_limited"
        /// 502/503: Unico did not create the process.
        public static let unicoUnavailable = "unico_unavailable"
        /// No answer from the service (``Kind-swift.enum/transport``).
        public static let transportFailed = "transport_failed"
        /// The calling task was cancelled.
        public static let cancelled = "cancelled"
        /// A 2xx answer that could not be decoded.
        public static let invalidResponse = "invalid_response"
    }

    public var kind: Kind
    /// The HTTP status; 0 for a transport failure.
    public var status: Int
    /// The problem's stable `code`; `transport_failed`, `cancelled` or `invalid_response` for failures
    /// without a problem body, `http_<status>` for a non-problem error answer.
    public var code: String
    public var title: String?
    public var detail: String?
    /// Seconds to wait before retrying, from `Retry-After` (delta-seconds or an HTTP date).
    public var retryAfter: TimeInterval?
    /// Other members of the problem (e.g. `field`, `status` of the journey, `attempt`, `scope`), as text.
    public var extra: [String: String]

    public init(
        kind: Kind, status: Int, code: String, title: String? = nil, detail: String? = nil,
        retryAfter: TimeInterval? = nil, extra: [String: String] = [:]
    ) {
        self.kind = kind
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.retryAfter = retryAfter
        self.extra = extra
    }

    /// Whether trying the same call again later may succeed (429, 502, 503, 504 or a transport failure).
    public var isRetryable: Bool {
        switch kind {
        case .transport: code != "cancelled"
        case .invalidResponse: false
        case .problem: [429, 502, 503, 504].contains(status)
        }
    }

    /// Whether the client token is missing, invalid or expired: the app must get a new one from its backend.
    public var needsNewClientToken: Bool { kind == .problem && status == 401 }

    public var description: String {
        var text = "JourneyClientError(\(kind.rawValue), status \(status), code \(code)"
        if let detail { text += ": \(detail)" }
        if let retryAfter { text += ", retry after \(retryAfter) s" }
        return text + ")"
    }

    /// The error of a non-2xx answer: the problem body when there is one, the status otherwise.
    ///
    /// `retryAfterHeader` is the raw `Retry-After` value; `now` is used for an HTTP-date value.
    public static func fromResponse(
        status: Int, body: Data, retryAfterHeader: String?,
        now: Date = Date()
    ) -> JourneyClientError {
        let retryAfter = retryAfterHeader.flatMap { parseRetryAfter($0, now: now) }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let code = object["code"] as? String, !code.isEmpty
        else {
            return JourneyClientError(kind: .problem, status: status, code: "http_\(status)", retryAfter: retryAfter)
        }
        var extra: [String: String] = [:]
        for (name, value) in object where !["code", "title", "detail", "status", "type"].contains(name) {
            extra[name] = text(value)
        }
        if let type = object["type"] as? String { extra["type"] = type }
        return JourneyClientError(
            kind: .problem, status: status, code: code, title: object["title"] as? String,
            detail: object["detail"] as? String, retryAfter: retryAfter, extra: extra)
    }

    /// Parses `Retry-After`: delta-seconds, or an IMF-fixdate measured from `now` (never negative).
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    private static func text(_ value: Any) -> String {
        switch value {
        case let string as String: string
        case let number as NSNumber: number.stringValue
        default: String(describing: value)
        }
    }
}
