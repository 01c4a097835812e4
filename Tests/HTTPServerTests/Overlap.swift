import Synchronization

/// Tracks how many handlers run at the same time.
final class Overlap: Sendable {
    private let state = Mutex((current: 0, peak: 0))

    func enter() {
        state.withLock {
            $0.current += 1; $0.peak = max($0.peak, $0.current)
        }
    }
    func leave() { state.withLock { $0.current -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}
