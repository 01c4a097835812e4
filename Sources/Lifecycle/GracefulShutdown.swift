import Synchronization

/// Suspends until the current task is cancelled: what a ``ServiceGroup`` does to shut a service
/// down. For services with nothing to do but wait (a listener already started), instead of a
/// sleep loop.
public func gracefulShutdown() async {
    let gate = Gate()
    await withTaskCancellationHandler {
        await withCheckedContinuation { gate.wait($0) }
    } onCancel: {
        gate.open()
    }
}

/// A one-shot latch: `wait` resumes once `open` was called, before or after.
private final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state in
            if state.isOpen { return true }
            state.waiter = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func open() {
        state.withLock { state in
            state.isOpen = true
            return state.waiter.take()
        }?.resume()
    }
}
