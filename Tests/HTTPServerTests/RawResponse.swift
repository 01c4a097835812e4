import Foundation
import Testing

/// A response as parsed from raw bytes.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    var description: String
}
