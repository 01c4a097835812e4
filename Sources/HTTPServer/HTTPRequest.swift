import Foundation

/// A fully received HTTP request, as handed to middleware and route handlers.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The path without the query, still percent-encoded as sent, e.g. `/v1/journeys/42/token`.
    public var path: String
    /// Query items in request order, percent-decoded (`+` read as a space).
    public var queryItems: [URLQueryItem]
    public var headers: HTTPHeaders
    public var body: Data
    /// Values captured by `{name}` segments of the matched route template.
    public var pathParameters: [String: String]
    /// The matched route template, e.g. `/v1/journeys/{id}/token`; nil when no route matched.
    public var route: String?
    /// The peer's numeric IP address, when known.
    public var remoteAddress: String?
    /// A per-request id: the client's `X-Request-ID` when well-formed, otherwise a generated one.
    public var requestID: String

    public init(
        method: HTTPMethod,
        path: String,
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        body: Data = Data(),
        pathParameters: [String: String] = [:],
        route: String? = nil,
        remoteAddress: String? = nil,
        requestID: String = UUID().uuidString.lowercased()
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.pathParameters = pathParameters
        self.route = route
        self.remoteAddress = remoteAddress
        self.requestID = requestID
    }

    /// The first value of query item `name`, if present.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The value of path parameter `name`; throws a 400 problem when the route has none by that name.
    public func pathParameter(_ name: String) throws(Problem) -> String {
        guard let value = pathParameters[name] else {
            throw Problem(
                status: .badRequest, code: "missing_path_parameter", detail: "Missing path parameter.",
                extra: ["field": name])
        }
        return value
    }

    /// Decodes the JSON body; a malformed or mismatched body becomes a 400 `invalid_json` problem.
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) throws(Problem) -> Value {
        if Self.containsEscapedNUL(body) {
            throw Problem.invalidJSON(field: nil, detail: "Strings may not contain U+0000.")
        }
        do {
            return try decoder.decode(type, from: body)
        } catch let DecodingError.keyNotFound(key, context) {
            throw Problem.invalidJSON(field: Self.fieldPath(context.codingPath + [key]), detail: "A required field is missing.")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw Problem.invalidJSON(field: Self.fieldPath(context.codingPath), detail: "A field has the wrong type.")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw Problem.invalidJSON(field: Self.fieldPath(context.codingPath), detail: "A field has an invalid value.")
        } catch {
            throw Problem.invalidJSON(field: nil, detail: "The body is not valid JSON.")
        }
    }

    /// True when a JSON text holds the escape `\u0000` (a raw NUL is not valid JSON anyway):
    /// valid JSON that no PostgreSQL `jsonb` or `text` column can store.
    static func containsEscapedNUL(_ body: Data) -> Bool {
        let pattern = Array("u0000".utf8)
        var backslashes = 0
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            if byte == UInt8(ascii: "\\") {
                backslashes += 1
            } else {
                if backslashes % 2 == 1, byte == UInt8(ascii: "u"), body.endIndex - index >= pattern.count,
                    body[index..<index + pattern.count].elementsEqual(pattern)
                {
                    return true
                }
                backslashes = 0
            }
            index += 1
        }
        return false
    }

    private static func fieldPath(_ path: [any CodingKey]) -> String {
        String(path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix("."))
    }
}
