import Foundation

/// A structured logger in the swift-log shape: a constant message plus metadata, one JSON line per
/// entry (`{"level":…,"label":…,"message":…,…metadata}`), written by an injectable sink.
///
/// Messages are constant text; everything that varies goes in metadata. Never put secrets or
/// personal data in either.
public struct Logger: Sendable {
    /// Severity, lowest first.
    public enum Level: String, Sendable, Comparable, CaseIterable {
        case debug, info, notice, warning, error

        public static func < (lhs: Level, rhs: Level) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Where rendered lines go.
    public typealias Sink = @Sendable (String) -> Void

    /// The component that logs (`worker`, `api`, `projections`…).
    public let label: String
    /// Entries below this level are dropped. Default `.info`.
    public var logLevel: Level
    /// Metadata added to every entry of this logger.
    public var metadata: [String: String]
    private let sink: Sink

    public init(
        label: String, logLevel: Level = .info, metadata: [String: String] = [:],
        sink: @escaping Sink = Logger.standardError
    ) {
        self.label = label
        self.logLevel = logLevel
        self.metadata = metadata
        self.sink = sink
    }

    /// Writes one line on standard error.
    public static let standardError: Sink = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    /// Drops every line.
    public static let discard: Sink = { _ in }

    /// Logs `message` at `level` with `metadata` (entry metadata wins over the logger's).
    public func log(_ level: Level, _ message: String, metadata entry: [String: String] = [:]) {
        guard level >= logLevel else { return }
        sink(Self.render(level: level, label: label, message: message, metadata: metadata.merging(entry) { $1 }))
    }

    public func debug(_ message: String, metadata: [String: String] = [:]) { log(.debug, message, metadata: metadata) }
    public func info(_ message: String, metadata: [String: String] = [:]) { log(.info, message, metadata: metadata) }
    public func notice(_ message: String, metadata: [String: String] = [:]) { log(.notice, message, metadata: metadata) }
    public func warning(_ message: String, metadata: [String: String] = [:]) { log(.warning, message, metadata: metadata) }
    public func error(_ message: String, metadata: [String: String] = [:]) { log(.error, message, metadata: metadata) }

    /// The JSON line of one entry, keys sorted.
    static func render(level: Level, label: String, message: String, metadata: [String: String]) -> String {
        var object = metadata
        object["level"] = level.rawValue
        object["label"] = label
        object["message"] = message
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(object) else { return #"{"message":"unencodable log entry"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
