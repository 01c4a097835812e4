import Synchronization

/// Where one operation's time went: named stages timed on the monotonic clock, summed per
/// stage, carried through the operation's task as ``current``.
///
/// Stages nest: a stage's time excludes the stages measured inside it, so the stages of an
/// operation add up to its time. Measure one timer's stages one after another (an operation's
/// own steps), never from concurrent tasks.
///
/// Timing costs two clock reads and one uncontended lock per stage; with no timer in the task
/// (``current`` nil) the static `measure` functions only read the task-local. Work handed to
/// another thread (a database connection's queue) does not see ``current``: capture the timer
/// before and time there with the instance methods.
///
/// ```swift
/// let timer = StageTimer()
/// try await StageTimer.$current.withValue(timer) {
///     try await StageTimer.measure("authenticate") { try await authenticate(request) }
/// }
/// sink(timer.stages)
/// ```
public final class StageTimer: Sendable {
    /// One stage's summed time.
    public struct Stage: Sendable, Equatable {
        public let name: String
        public let duration: Duration
    }

    /// The timer of the operation this task runs, if it is timed.
    @TaskLocal public static var current: StageTimer?

    private struct State {
        var stages: [Stage] = []
        /// Per open stage, outermost first: the time of the stages measured inside it so far.
        var inner: [Duration] = []

        mutating func add(_ name: String, _ duration: Duration) {
            if let index = stages.firstIndex(where: { $0.name == name }) {
                stages[index] = Stage(name: name, duration: stages[index].duration + duration)
            } else {
                stages.append(Stage(name: name, duration: duration))
            }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// Stages in the order first recorded, each with its summed duration.
    public var stages: [Stage] { state.withLock { $0.stages } }

    /// Adds `duration` to stage `name` (and to the time inside the open stage, if any).
    public func record(_ name: String, _ duration: Duration) {
        state.withLock { state in
            if !state.inner.isEmpty { state.inner[state.inner.count - 1] += duration }
            state.add(name, duration)
        }
    }

    /// Runs `body`, adding its time (thrown or not) less its inner stages' to stage `name`.
    public func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let begin = open()
        defer { close(name, begin) }
        return try body()
    }

    /// Runs `body`, adding its time (thrown or not) less its inner stages' to stage `name`.
    public func measure<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
        let begin = open()
        defer { close(name, begin) }
        return try await body()
    }

    private func open() -> ContinuousClock.Instant {
        state.withLock { $0.inner.append(.zero) }
        return ContinuousClock.now
    }

    private func close(_ name: String, _ begin: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - begin
        state.withLock { state in
            let inner = state.inner.popLast() ?? .zero
            if !state.inner.isEmpty { state.inner[state.inner.count - 1] += elapsed }
            state.add(name, elapsed - inner)
        }
    }

    /// Runs `body`, adding its time to stage `name` of ``current`` when there is one.
    public static func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        guard let timer = current else { return try body() }
        return try timer.measure(name, body)
    }

    /// Runs `body`, adding its time to stage `name` of ``current`` when there is one.
    public static func measure<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
        guard let timer = current else { return try await body() }
        return try await timer.measure(name, body)
    }

    /// Runs `body`, adding its time to stage `name` of `timer` when there is one (work on
    /// another thread, which does not see ``current``).
    public static func measure<T>(_ name: String, in timer: StageTimer?, _ body: () throws -> T) rethrows -> T {
        guard let timer else { return try body() }
        return try timer.measure(name, body)
    }
}
