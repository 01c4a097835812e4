import Synchronization

/// A wake-up signal: `ring()` ends pending `wait(upTo:)` calls early, or the next one when
/// nobody is waiting.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    func ring() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.rung = true
                return []
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns when rung (true), after `interval` or on cancellation (false).
    @discardableResult
    func wait(upTo interval: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await Task.sleep(for: interval)
                return false
            }
            group.addTask {
                await self.waitForRing()
                return !Task.isCancelled
            }
            let rung = await group.next() ?? false
            group.cancelAll()
            return rung
        }
    }

    private func waitForRing() async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil { return true }
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume()
        }
        state.withLock { _ = $0.cancelled.remove(id) }
    }
}
