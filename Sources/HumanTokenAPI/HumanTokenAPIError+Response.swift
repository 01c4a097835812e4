import Cryptography
import Foundation
import JSONBytes
import Timestamps

extension HumanTokenAPIError {
    /// What each documented token-endpoint code means.
    static let tokenEndpointCodes: [String: String] = [
        "1.0.1": "wrong tenant", "1.2.4": "assertion expired", "1.2.5": "assertion signature not valid",
        "1.2.7": "assertion already used", "1.2.22": "assertion has extra claims",
    ]

    /// The error for a non-200 answer from the token endpoint.
    ///
    /// The body is `{"error":"...","error_description":"... <code>"}`; only the code is kept.
    static func fromTokenEndpoint(_ response: HTTPExchange.Response, now: Date) -> HumanTokenAPIError {
        let body = try? JSONDecoder().decode(JSONValue.self, from: response.body)
        let description = body?["error_description"]?.stringValue ?? ""
        let unicoCode = lastDottedCode(in: description)
        if let generic = generic(response, now: now, what: "the token endpoint", unicoCode: unicoCode) {
            return generic
        }
        let meaning = unicoCode.flatMap { tokenEndpointCodes[$0] } ?? "access refused"
        return HumanTokenAPIError(
            .unauthorized, "the token endpoint refused the assertion: \(meaning)",
            status: response.status, unicoCode: unicoCode)
    }

    /// The error for a non-2xx answer from the process API.
    ///
    /// The body is `{"error":{"code":<int>,"message":"..."}}`; the message is read for the
    /// field it names, never copied, since it may echo personal data.
    static func fromAPI(_ response: HTTPExchange.Response, now: Date, what: String) -> HumanTokenAPIError {
        let body = try? JSONDecoder().decode(JSONValue.self, from: response.body)
        let error = body?["error"]
        let unicoCode = error?["code"]?.intValue.map(String.init) ?? error?["code"]?.stringValue
        if let generic = generic(response, now: now, what: what, unicoCode: unicoCode) { return generic }
        switch response.status {
        case 400:
            let field =
                error.flatMap(RequestFieldName.structured(in:))
                ?? (error?["message"]?.stringValue).flatMap(RequestFieldName.mentioned(in:))
            let subject = field.map { "field \($0)" } ?? "the request"
            return HumanTokenAPIError(
                .invalidArgument, "\(what): Unico refused \(subject)", field: field,
                status: 400, unicoCode: unicoCode)
        case 401, 403:
            return HumanTokenAPIError(
                .unauthorized, "\(what): access token refused", status: response.status, unicoCode: unicoCode)
        case 404:
            return HumanTokenAPIError(.notFound, "\(what): no such process", status: 404, unicoCode: unicoCode)
        default:
            return HumanTokenAPIError(
                .invalidResponse, "\(what): unexpected HTTP \(response.status)",
                status: response.status, unicoCode: unicoCode)
        }
    }

    /// The errors every endpoint shares: 429 and 5xx.
    private static func generic(
        _ response: HTTPExchange.Response, now: Date, what: String, unicoCode: String?
    ) -> HumanTokenAPIError? {
        switch response.status {
        case 429:
            let seconds = retryAfter(response.header("Retry-After"), now: now)
            return HumanTokenAPIError(
                .rateLimited, "\(what): rate limited, retry after \(seconds)s",
                status: 429, unicoCode: unicoCode, retryAfter: seconds)
        case 500...599:
            return HumanTokenAPIError(
                .serverError, "\(what): Unico failed with HTTP \(response.status)",
                status: response.status, unicoCode: unicoCode)
        default:
            return nil
        }
    }

    /// The most a Unico `Retry-After` is believed, in seconds: a larger (or absurd) value would
    /// stop every call of the tenant, in every process, for as long. 60.
    public static let maximumRetryAfter = 60

    /// `Retry-After` as whole seconds, at most ``maximumRetryAfter``: delta-seconds or an HTTP
    /// date; 1 when absent or unreadable.
    static func retryAfter(_ header: String?, now: Date) -> Int {
        guard let header, let seconds = RetryAfter.seconds(header, now: now) else { return 1 }
        return Int(min(seconds.rounded(.up), Double(maximumRetryAfter)))
    }

    /// The last `1.2.5`-style code in `text`.
    private static func lastDottedCode(in text: String) -> String? {
        let words = text.split { !($0.isNumber || $0 == ".") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        return words.last { word in
            let parts = word.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        }
    }
}
