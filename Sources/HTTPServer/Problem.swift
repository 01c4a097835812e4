import Foundation

/// An RFC 9457 problem detail; throw it from a handler to answer with `application/problem+json`.
///
/// `code` is a stable machine-readable string clients may switch on; `title` and `detail` are for
/// humans and may change. `retryable` says whether sending the same request again can succeed.
/// `extra` adds members such as `field` for validation errors; it cannot replace the standard
/// members.
public struct Problem: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The media type problems are served as.
    public static let mediaType = "application/problem+json"

    public var type: String
    public var title: String
    public var status: HTTPStatus
    public var detail: String?
    public var code: String
    public var instance: String?
    public var extra: [String: String]
    /// Response header fields to send with the problem, e.g. `Allow` or `Retry-After`; not rendered.
    public var headers: HTTPHeaders
    /// Whether the same request may succeed later; nil derives it (``isRetryable``).
    public var retryable: Bool?

    /// `retryable` when set, else true for a problem with `Retry-After`, a 408, 425, 429 or a 5xx
    /// other than 501, and false for the rest: a 4xx is about the request, and sending it again
    /// unchanged gets the same answer.
    public var isRetryable: Bool {
        if let retryable { return retryable }
        if headers["Retry-After"] != nil { return true }
        switch status.code {
        case 408, 425, 429: return true
        case 501: return false
        case 500...599: return true
        default: return false
        }
    }

    /// Creates a problem; `title` defaults to the status reason phrase and `type` to `about:blank`.
    public init(
        status: HTTPStatus,
        code: String,
        detail: String? = nil,
        title: String? = nil,
        type: String = "about:blank",
        instance: String? = nil,
        extra: [String: String] = [:],
        headers: HTTPHeaders = HTTPHeaders(),
        retryable: Bool? = nil
    ) {
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.status = status
        self.detail = detail
        self.code = code
        self.instance = instance
        self.extra = extra
        self.headers = headers
        self.retryable = retryable
    }

    public var description: String { "Problem(\(status.code) \(code))" }

    /// The problem rendered as an `application/problem+json` response.
    public var response: HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = headers
        headers["Content-Type"] = Self.mediaType
        let body = (try? encoder.encode(self)) ?? Data(#"{"code":"internal_error","retryable":true,"status":500}"#.utf8)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in extra where !Self.standardMembers.contains(name) {
            try container.encode(value, forKey: Key(name))
        }
        try container.encode(type, forKey: Key("type"))
        try container.encode(title, forKey: Key("title"))
        try container.encode(status.code, forKey: Key("status"))
        try container.encodeIfPresent(detail, forKey: Key("detail"))
        try container.encode(code, forKey: Key("code"))
        try container.encodeIfPresent(instance, forKey: Key("instance"))
        try container.encode(isRetryable, forKey: Key("retryable"))
    }

    private static let standardMembers: Set<String> = ["type", "title", "status", "detail", "code", "instance", "retryable"]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension Problem {
    /// 404 `not_found`: no route, or no such resource.
    public static func notFound(detail: String? = nil) -> Problem {
        Problem(status: .notFound, code: "not_found", detail: detail)
    }

    /// 405 `method_not_allowed` with an `Allow` header listing `allowed`.
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> Problem {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return Problem(
            status: .methodNotAllowed, code: "method_not_allowed",
            detail: "Allowed methods: \(list).", headers: ["Allow": list])
    }

    /// 413 `payload_too_large`: the body exceeds `limit` bytes.
    public static func payloadTooLarge(limit: Int) -> Problem {
        Problem(
            status: .contentTooLarge, code: "payload_too_large",
            detail: "The request body exceeds \(limit) bytes.", extra: ["limit": String(limit)])
    }

    /// 431 `header_fields_too_large`: the request line and header fields exceed `limit` bytes.
    public static func headerFieldsTooLarge(limit: Int) -> Problem {
        Problem(
            status: 431, code: "header_fields_too_large",
            detail: "The request's header fields exceed \(limit) bytes.", extra: ["limit": String(limit)])
    }

    /// 415 `unsupported_media_type`: the body is not sent as `expected` (e.g. `application/json`).
    public static func unsupportedMediaType(expected: String) -> Problem {
        Problem(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            detail: "Send the body as \(expected).", extra: ["expected": expected])
    }

    /// 400 `invalid_json`: the body could not be decoded; `field` names the offending member.
    public static func invalidJSON(field: String?, detail: String) -> Problem {
        Problem(
            status: .badRequest, code: "invalid_json", detail: detail,
            extra: field.map { ["field": $0] } ?? [:])
    }

    /// 422 `validation_failed` (or a more specific `code`) for a well-formed but invalid `field`.
    public static func validationFailed(field: String, detail: String, code: String = "validation_failed") -> Problem {
        Problem(status: .unprocessableContent, code: code, detail: detail, extra: ["field": field])
    }

    /// 500 `internal_error`; deliberately says nothing about the cause.
    public static func internalError() -> Problem {
        Problem(status: .internalServerError, code: "internal_error", detail: "An unexpected error occurred.")
    }

    /// 503 `service_unavailable`, e.g. while shutting down.
    public static func serviceUnavailable(detail: String? = nil) -> Problem {
        Problem(status: .serviceUnavailable, code: "service_unavailable", detail: detail)
    }
}
