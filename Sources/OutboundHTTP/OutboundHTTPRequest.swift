import Foundation

/// One HTTP/1.1 request: a method, an absolute `http` or `https` URL, header fields and a body.
///
/// The client adds `Host` (the URL's host and port), `Content-Length`, and `Connection: close`
/// only when it keeps no idle connection (HTTP/1.1 keeps the connection open otherwise); a
/// caller's field of those names, or `Transfer-Encoding`, is refused, as is any control character
/// in a name or value.
public struct OutboundHTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [OutboundHTTPHeader]
    public var body: Data

    public init(method: String = "GET", url: URL, headers: [OutboundHTTPHeader] = [], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Where the request goes and what goes on the wire, read once from the URL.
    struct Target: Sendable, Equatable {
        /// `https`.
        var secure: Bool
        /// The URL's host without brackets (a name, or an IP literal).
        var host: String
        var port: UInt16
        /// The path and query, `/` when the path is empty.
        var requestTarget: String

        /// `host[:port]` for the `Host` field: brackets around IPv6, no default port.
        var authority: String {
            let bracketed = host.contains(":") ? "[\(host)]" : host
            return port == (secure ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
        }
    }

    /// The target; `invalid_request` when the URL is not one this client sends to.
    func target() throws(OutboundHTTPError) -> Target {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw OutboundHTTPError(.invalidRequest, "only http and https URLs are sent")
        }
        guard var host = components.host, !host.isEmpty else { throw OutboundHTTPError(.invalidRequest, "the URL has no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let secure = scheme == "https"
        let port = components.port ?? (secure ? 443 : 80)
        guard let port = UInt16(exactly: port), port > 0 else {
            throw OutboundHTTPError(.invalidRequest, "the URL's port is out of range")
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }), host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw OutboundHTTPError(.invalidRequest, "the URL holds a space or a control character")
        }
        return Target(secure: secure, host: host, port: port, requestTarget: target)
    }

    /// The bytes of the head and body for `target`, with `Connection: close` unless `keepAlive`;
    /// `invalid_request` naming a bad field.
    func serialized(for target: Target, keepAlive: Bool) throws(OutboundHTTPError) -> [UInt8] {
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            throw OutboundHTTPError(.invalidRequest, "the method is not an HTTP token")
        }
        var head = "\(method) \(target.requestTarget) HTTP/1.1\r\nHost: \(target.authority)\r\n"
        for field in headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte) else {
                throw OutboundHTTPError(.invalidRequest, "a header name is not an HTTP token")
            }
            guard !Self.reserved.contains(where: { field.name.caseInsensitiveEquals($0) }) else {
                throw OutboundHTTPError(.invalidRequest, "header \(field.name) is set by the client")
            }
            guard field.value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) }) else {
                throw OutboundHTTPError(.invalidRequest, "header \(field.name) holds a control character")
            }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n" + (keepAlive ? "\r\n" : "Connection: close\r\n\r\n")
        return Array(head.utf8) + body
    }

    static let reserved = ["Host", "Content-Length", "Connection", "Transfer-Encoding"]

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            tokenSymbols.contains(byte)
        }
    }

    static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
}
