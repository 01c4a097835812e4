import Foundation
import HTTPServer

/// What a ``TestClient`` got back: status, header fields by lowercased name, body.
public struct TestResponse: Sendable {
    public let status: Int
    /// Header fields by lowercased name; repeated fields joined with `, ` (as URLSession does).
    public let headers: [String: String]
    public let body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object; empty when it is not one.
    public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    /// A problem's `code`.
    public var code: String? { json["code"] as? String }
    /// A problem's `field`.
    public var field: String? { json["field"] as? String }
    /// A member of the JSON body.
    public subscript(_ key: String) -> Any? { json[key] }
}
