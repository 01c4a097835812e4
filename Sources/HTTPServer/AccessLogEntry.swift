import Foundation

/// One finished request as seen by the access log.
///
/// Carries no bodies, raw paths, query strings or header values: only the route template, so ids
/// and tokens in paths never reach the log.
public struct AccessLogEntry: Sendable, Equatable {
    /// Wall-clock time the request finished.
    public var timestamp: Date
    public var method: HTTPMethod
    /// The matched route template; nil when no route matched.
    public var route: String?
    public var status: HTTPStatus
    /// From the first header byte processed to the end of the response.
    public var duration: Duration
    /// Response body bytes.
    public var bytes: Int
    public var requestID: String
    /// Type name of an unexpected error a handler threw (never its message).
    public var errorType: String?
    /// False when the connection ended before the whole response was sent.
    public var completed: Bool

    public init(
        timestamp: Date, method: HTTPMethod, route: String?, status: HTTPStatus, duration: Duration,
        bytes: Int, requestID: String, errorType: String? = nil, completed: Bool = true
    ) {
        self.timestamp = timestamp
        self.method = method
        self.route = route
        self.status = status
        self.duration = duration
        self.bytes = bytes
        self.requestID = requestID
        self.errorType = errorType
        self.completed = completed
    }

    /// The default sink: one JSON line per request on standard error.
    public static let standardError: @Sendable (AccessLogEntry) -> Void = { entry in
        let line = entry.jsonLine + "\n"
        line.utf8CString.withUnsafeBufferPointer { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// A sink that drops every entry.
    public static let discard: @Sendable (AccessLogEntry) -> Void = { _ in }

    /// The entry as one JSON object with constant `msg` and snake_case keys.
    public var jsonLine: String {
        let milliseconds = duration / .milliseconds(1)
        var fields = [
            #""ts":"\#(timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))""#,
            #""level":"info""#,
            #""msg":"http.access""#,
            #""method":\#(Self.quoted(method.rawValue))"#,
            #""route":\#(route.map(Self.quoted) ?? "null")"#,
            #""status":\#(status.code)"#,
            #""duration_ms":\#((milliseconds * 1000).rounded() / 1000)"#,
            #""bytes":\#(bytes)"#,
            #""request_id":\#(Self.quoted(requestID))"#,
        ]
        if let errorType { fields.append(#""error_type":\#(Self.quoted(errorType))"#) }
        if !completed { fields.append(#""completed":false"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
