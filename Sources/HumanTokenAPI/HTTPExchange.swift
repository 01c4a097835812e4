import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request and its answer over a `URLSession`, with failures turned into typed errors.
///
/// Redirects are never followed: a 3xx is an `invalid_response` naming the status (a bearer
/// token or an assertion must not travel to a host nobody configured). A cancelled caller gets
/// `CancellationError` at once (``CancellableDataTask``).
struct HTTPExchange: Sendable {
    /// A received answer of any status.
    struct Response: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// A header by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    let session: URLSession
    let timeout: TimeInterval

    /// Sends `request` with the configured timeout; throws `timeout` or `transport` if no answer arrives.
    func send(_ request: URLRequest) async throws -> Response {
        var request = request
        request.timeoutInterval = timeout
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.httpShouldHandleCookies = false
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await CancellableDataTask.data(session, for: request)
        } catch let error as URLError {
            try Task.checkCancellation()
            if error.code == .timedOut {
                throw HumanTokenAPIError(.timeout, "no answer from \(Self.hostName(request)) within \(timeout)s")
            }
            throw HumanTokenAPIError(
                .transport, "could not reach \(Self.hostName(request)) (URLError \(error.code.rawValue))")
        }
        guard let http = response as? HTTPURLResponse else {
            throw HumanTokenAPIError(.invalidResponse, "\(Self.hostName(request)) did not answer with HTTP")
        }
        if (300..<400).contains(http.statusCode) || (http.url.map { $0 != request.url } ?? false) {
            let status = (300..<400).contains(http.statusCode) ? "HTTP \(http.statusCode)" : "a redirect"
            throw HumanTokenAPIError(
                .invalidResponse, "\(Self.hostName(request)) answered with \(status); redirects are not followed",
                status: http.statusCode)
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
        return Response(status: http.statusCode, headers: headers, body: data)
    }

    /// The host and port only: paths carry process ids, which stay out of messages.
    static func hostName(_ request: URLRequest) -> String {
        guard let url = request.url, let host = url.host else { return "the server" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// A URLSession suited to API calls: no cache, no cookies, no credential storage, no redirects.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        return URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }
}
