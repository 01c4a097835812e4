import Foundation
import HTTPServer

/// JSON encoding shared by every emulator response: sorted keys, unescaped slashes.
enum JSONBody {
    static func response(_ value: some Encodable, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = headers
        headers["Content-Type"] = "application/json"
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// RFC 3339 UTC with milliseconds, e.g. `2026-01-01T12:00:00.250Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
