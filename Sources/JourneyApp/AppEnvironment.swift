import CLI
import Foundation
import Observability
import Synchronization

/// What a command reads from its surroundings: environment variables and where output goes.
/// Task-local so tests can run commands in-process, in parallel, each with its own.
public struct AppEnvironment: Sendable {
    public var variables: [String: String]
    public var writeLine: @Sendable (String) -> Void
    /// Where the commands' structured log lines go. Default: standard error.
    public var logSink: Logger.Sink = Logger.standardError

    public init(variables: [String: String], writeLine: @escaping @Sendable (String) -> Void) {
        self.variables = variables
        self.writeLine = writeLine
    }

    @TaskLocal public static var current = AppEnvironment(
        variables: ProcessInfo.processInfo.environment,
        writeLine: { StandardStream.output.writeLine($0) })

    /// A logger writing to ``logSink``.
    public func logger(_ label: String) -> Logger { Logger(label: label, sink: logSink) }

    /// Database settings from `DATABASE_URL`, `DATABASE_ADMIN_URL`, `DATABASE_PROJECTOR_URL`, `JOURNEYS_PG_DIR`,
    /// `DATABASE_LISTEN_URL`, `REPORTS_DATABASE_URL`, `DATABASE_PREPARED_STATEMENTS`.
    public var database: DatabaseSettings { DatabaseSettings.from(environment: variables) }
}

/// Collects lines written by commands (for tests).
public final class OutputCapture: Sendable {
    private let lines = Mutex<[String]>([])
    public init() {}
    public func append(_ line: String) { lines.withLock { $0.append(line) } }
    public var text: String { lines.withLock { $0.joined(separator: "\n") } }
    public var all: [String] { lines.withLock { $0 } }
}
