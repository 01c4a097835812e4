import HTTPServer

/// A process API refusal: `{"error":{"code":<gRPC code>,"message":"..."}}`.
///
/// Codes: 3 invalid argument (the message starts with the field path), 5 not found,
/// 8 rate limited (with `Retry-After`), 16 unauthenticated, 99999 internal.
struct APIError: Error, Sendable, Equatable {
    var status: HTTPStatus
    var code: Int
    var message: String
    var headers: HTTPHeaders = HTTPHeaders()

    /// 400, code 3; `field` is the JSON path, e.g. `person.duiValue`.
    static func invalidArgument(_ field: String, _ problem: String) -> APIError {
        APIError(status: .badRequest, code: 3, message: "\(field): \(problem)")
    }

    static func notFound(_ message: String = "process not found") -> APIError {
        APIError(status: .notFound, code: 5, message: message)
    }

    static func unauthenticated(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: 16, message: message)
    }

    static func rateLimited(retryAfterSeconds: Int) -> APIError {
        APIError(
            status: .tooManyRequests, code: 8, message: "rate limit exceeded",
            headers: ["Retry-After": String(retryAfterSeconds)])
    }

    static func internalError(status: HTTPStatus = .internalServerError, _ message: String = "internal error") -> APIError {
        APIError(status: status, code: 99999, message: message)
    }

    var response: HTTPResponse {
        JSONBody.response(Body(error: .init(code: code, message: message)), status: status, headers: headers)
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: Int
            var message: String
        }
        var error: Detail
    }
}
