import Foundation

/// A structured logger in the swift-log shape: a constant message plus metadata, one JSON line per
/// entry in the ``LogLine`` schema (`{"ts":…,"level":…,"label":…,"message":…,…metadata}`, metadata
/// keys sorted), written by an injectable sink.
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
    private let now: @Sendable () -> Date

    /// `now` gives each entry's `ts`. Default: the system clock.
    public init(
        label: String, logLevel: Level = .info, metadata: [String: String] = [:],
        sink: @escaping Sink = Logger.standardError, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.label = label
        self.logLevel = logLevel
        self.metadata = metadata
        self.sink = sink
        self.now = now
    }

    /// Writes one line on standard error, in one `write` so that lines of concurrent writers do
    /// not interleave.
    public static let standardError: Sink = { line in
        let text = line + "\n"
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// Drops every line.
    public static let discard: Sink = { _ in }

    /// Logs `message` at `level` with `metadata` (entry metadata wins over the logger's).
    public func log(_ level: Level, _ message: String, metadata entry: [String: String] = [:]) {
        guard level >= logLevel else { return }
        let merged = metadata.merging(entry) { $1 }
        sink(
            LogLine.render(
                time: now(), level: level, label: label, message: message,
                fields: merged.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
    }

    public func debug(_ message: String, metadata: [String: String] = [:]) { log(.debug, message, metadata: metadata) }
    public func info(_ message: String, metadata: [String: String] = [:]) { log(.info, message, metadata: metadata) }
    public func notice(_ message: String, metadata: [String: String] = [:]) { log(.notice, message, metadata: metadata) }
    public func warning(_ message: String, metadata: [String: String] = [:]) { log(.warning, message, metadata: metadata) }
    public func error(_ message: String, metadata: [String: String] = [:]) { log(.error, message, metadata: metadata) }
}
