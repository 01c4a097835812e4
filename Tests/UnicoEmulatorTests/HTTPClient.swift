import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response read over real HTTP.
struct Reply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    func json() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: body) as? [String: Any], "body: \(String(decoding: body, as: UTF8.self))")
    }

    /// `error.code` and `error.message` of an API error body.
    func apiError() throws -> (code: Int, message: String) {
        let error = try #require(try json()["error"] as? [String: Any])
        return (try #require(error["code"] as? Int), try #require(error["message"] as? String))
    }

    /// The trailing Unico code of a token endpoint error description.
    func tokenErrorCode() throws -> String {
        let json = try json()
        #expect(json["error"] as? String == "server_error")
        let description = try #require(json["error_description"] as? String)
        return String(try #require(description.split(separator: " ").last))
    }
}

/// Sends requests with URLSession (FoundationNetworking on Linux).
struct HTTPClient: Sendable {
    let base: URL

    static let session = URLSession(configuration: .ephemeral)

    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = method
        request.timeoutInterval = 10
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    func json(_ method: String, _ path: String, bearer: String? = nil, _ object: Any) async throws -> Reply {
        var headers = ["Content-Type": "application/json"]
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return try await send(method, path, headers: headers, body: try JSONSerialization.data(withJSONObject: object))
    }

    func form(_ path: String, _ fields: [(String, String)]) async throws -> Reply {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }.joined(separator: "&")
        return try await send("POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
    }
}
