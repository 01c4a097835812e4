/// A progress report for long work, written to standard error.
///
/// On a terminal the bar redraws in place with `\r` (at most every
/// `Configuration.redrawInterval`); otherwise it writes a plain line every
/// `Configuration.lineInterval`, so logs stay readable. `finish()` ends with a summary line.
///
/// ```swift
/// var progress = ProgressBar(total: events.count, label: "append")
/// for (index, event) in events.enumerated() {
///     try await store.append(event)
///     progress.update(done: index + 1)
/// }
/// progress.finish()
/// ```
public struct ProgressBar: Sendable {
    /// How the bar looks and how often it writes.
    public struct Configuration: Sendable {
        /// Characters between the brackets; default 24.
        public var barWidth = 24
        /// Shortest time between terminal redraws; default 100 ms.
        public var redrawInterval: Duration = .milliseconds(100)
        /// Shortest time between plain lines when not on a terminal; default 5 s.
        public var lineInterval: Duration = .seconds(5)

        public init() {}
    }

    /// The amount of work when done.
    public let total: Int
    /// A short name for the work, e.g. `append`.
    public let label: String
    public let configuration: Configuration
    /// Whether output redraws in place (a terminal) or appends lines.
    let interactive: Bool
    private let output: StandardStream
    private let start: ContinuousClock.Instant
    private(set) var done = 0
    private(set) var lastWrite: Duration = .zero
    private(set) var isFinished = false

    /// A bar on `output`, redrawing in place only when `output` is a terminal.
    public init(
        total: Int, label: String, output: StandardStream = .error, configuration: Configuration = .init()
    ) {
        self.init(total: total, label: label, interactive: output.isTerminal, output: output, configuration: configuration)
    }

    init(total: Int, label: String, interactive: Bool, output: StandardStream, configuration: Configuration) {
        self.total = max(0, total)
        self.label = label
        self.interactive = interactive
        self.output = output
        self.configuration = configuration
        self.start = .now
    }

    /// Records that `done` units are complete and writes if it is time to.
    public mutating func update(done: Int) {
        if let text = advance(done: done, elapsed: start.duration(to: .now)) { output.write(text) }
    }

    /// Writes the final state and a line end; later calls do nothing.
    public mutating func finish() {
        if let text = finish(elapsed: start.duration(to: .now)) { output.write(text) }
    }

    /// The text to write after `done` units at `elapsed`, or `nil` when it is not yet time.
    mutating func advance(done: Int, elapsed: Duration) -> String? {
        guard !isFinished else { return nil }
        self.done = min(max(0, done), total)
        let interval = interactive ? configuration.redrawInterval : configuration.lineInterval
        guard elapsed - lastWrite >= interval || (interactive && self.done == total) else { return nil }
        lastWrite = elapsed
        return interactive
            ? "\r" + Self.bar(label: label, done: self.done, total: total, elapsed: elapsed, width: configuration.barWidth)
            : Self.line(label: label, done: self.done, total: total, elapsed: elapsed) + "\n"
    }

    /// The closing text at `elapsed`, or `nil` when already finished.
    mutating func finish(elapsed: Duration) -> String? {
        guard !isFinished else { return nil }
        isFinished = true
        let summary = Self.summary(label: label, done: done, elapsed: elapsed)
        guard interactive else { return summary + "\n" }
        let bar = Self.bar(label: label, done: done, total: total, elapsed: elapsed, width: configuration.barWidth)
        return "\r" + bar + "\n"
    }
}
