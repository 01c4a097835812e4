import Foundation
import Observability

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

    /// The default sink: one line per request on standard error, as the ``Logger`` writes it.
    public static let standardError: @Sendable (AccessLogEntry) -> Void = { entry in Logger.standardError(entry.jsonLine) }

    /// A sink that drops every entry.
    public static let discard: @Sendable (AccessLogEntry) -> Void = { _ in }

    /// The entry as one ``LogLine``: label `http`, message `http.access`, level `info`, then
    /// snake_case fields (`method`, `route`, `status`, `duration_ms`, `bytes`, `request_id`,
    /// `error_type` when set, `completed` when false).
    public var jsonLine: String {
        let milliseconds = duration / .milliseconds(1)
        var fields: [(key: String, value: LogLine.Value)] = [
            ("method", .string(method.rawValue)),
            ("route", route.map(LogLine.Value.string) ?? .null),
            ("status", .int(status.code)),
            ("duration_ms", .double((milliseconds * 1000).rounded() / 1000)),
            ("bytes", .int(bytes)),
            ("request_id", .string(requestID)),
        ]
        if let errorType { fields.append(("error_type", .string(errorType))) }
        if !completed { fields.append(("completed", .bool(false))) }
        return LogLine.render(time: timestamp, level: .info, label: "http", message: "http.access", fields: fields)
    }
}
