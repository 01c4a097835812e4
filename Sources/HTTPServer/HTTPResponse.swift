import Foundation

/// A response to send: status, header fields and a fully buffered body.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    /// Header fields to send; `Content-Length` and `Date` are set by the server.
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body encoded with `encoder`, served as `application/json`.
    public static func json(
        _ value: some Encodable,
        status: HTTPStatus = .ok,
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: try encoder.encode(value))
    }

    /// A UTF-8 plain text body.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// A UTF-8 HTML body.
    public static func html(_ html: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(html.utf8))
    }

    /// An empty body with the given status, 204 by default.
    public static func empty(status: HTTPStatus = .noContent) -> HTTPResponse {
        HTTPResponse(status: status)
    }
}
