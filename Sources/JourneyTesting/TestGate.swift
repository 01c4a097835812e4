import Synchronization

/// A latch the test opens: work under test (a handler, a recovery) waits at it until the test
/// lets it go, so it stays in flight exactly as long as the test needs, with no duration to guess.
public final class TestGate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Returns once the gate is open (at once when it already is).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.waiting.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    /// How many callers wait at the gate now.
    public var waiting: Int { state.withLock { $0.waiting.count } }

    /// Lets every waiting caller go on, and later ones pass.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
