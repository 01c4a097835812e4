import Foundation
import HTTPServer

/// Calls a router in-process, without a socket, as the server would (the shape of hummingbird's
/// router test client): routing, middleware and problem rendering run; sockets, libmicrohttpd's
/// body limit and access log do not.
public struct TestClient: Sendable {
    public let router: Router

    public init(router: Router) {
        self.router = router
    }

    /// Sends `method` to `uri` (a path with an optional query, e.g. `/v1/journeys?limit=3`).
    public func execute(
        _ method: HTTPMethod, _ uri: String, headers: HTTPHeaders = HTTPHeaders(),
        body: Data = Data()
    ) async -> TestResponse {
        let (path, query) = Self.split(uri)
        let requestID = headers["X-Request-ID"] ?? UUID().uuidString.lowercased()
        let request = HTTPRequest(
            method: method, path: path, queryItems: query, headers: headers, body: body,
            remoteAddress: "127.0.0.1", requestID: requestID)
        let response = await router.respond(to: request)
        var fields: [String: String] = [:]
        for field in response.headers {
            let name = field.name.lowercased()
            fields[name] = fields[name].map { "\($0), \(field.value)" } ?? field.value
        }
        fields["x-request-id"] = requestID
        return TestResponse(status: response.status.code, headers: fields, body: response.body)
    }

    /// Sends a request the way the tests' callers do: `bearer` becomes `Authorization: Bearer …`,
    /// `json` a JSON body (sorted keys), `form` a form-encoded body.
    public func send(
        _ method: String, _ uri: String, bearer: String? = nil, headers: [String: String] = [:],
        json: Any? = nil, form: String? = nil
    ) async throws -> TestResponse {
        var fields = HTTPHeaders()
        if let bearer { fields["Authorization"] = "Bearer \(bearer)" }
        var body = Data()
        if let json {
            body = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            fields["Content-Type"] = "application/json"
        } else if let form {
            body = Data(form.utf8)
            fields["Content-Type"] = "application/x-www-form-urlencoded"
        }
        for (name, value) in headers { fields[name] = value }
        return await execute(HTTPMethod(rawValue: method), uri, headers: fields, body: body)
    }

    /// The raw path and the percent-decoded query items (`+` read as a space), as the server parses them.
    static func split(_ uri: String) -> (path: String, query: [URLQueryItem]) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, []) }
        let query = uri[uri.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
        return (String(uri[..<mark]), query)
    }
}
