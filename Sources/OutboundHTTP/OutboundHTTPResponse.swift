import Foundation

/// An answer: its status line, header fields and at most the client's body cap of its body.
public struct OutboundHTTPResponse: Sendable {
    /// The status code (a final one: interim 1xx answers are skipped).
    public var status: Int
    /// The reason phrase as sent (may be empty).
    public var reason: String
    /// The header fields in order, as received (folded lines joined by a space).
    public var headers: [OutboundHTTPHeader]
    /// The body, decoded from chunks, at most ``OutboundHTTPClient/Configuration/maxResponseBytes``.
    public var body: Data
    /// True when the body was longer than the cap: announced longer (then none of it was read)
    /// or streamed past it (then it was cut there); the connection was closed either way.
    public var bodyTruncated: Bool
    /// The address that answered.
    public var address: IPAddress

    public init(
        status: Int, reason: String = "", headers: [OutboundHTTPHeader] = [], body: Data = Data(),
        bodyTruncated: Bool = false, address: IPAddress
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.bodyTruncated = bodyTruncated
        self.address = address
    }

    /// The first value of the header field `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first(name) }
}
