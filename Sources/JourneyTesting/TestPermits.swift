import Foundation
import Synchronization

/// A process-wide bound on test databases alive at once, so a parallel run never holds hundreds
/// of pools, servers and sockets together (Foundation's socket thread stops working for
/// descriptors above 1024).
///
/// ``TestDatabase/create(migrated:poolSize:)`` takes a permit; ``TestDatabase/drop()`` (or the
/// last copy of the database going away) gives it back. A test that waits longer than
/// ``patience`` goes ahead without one, so a test holding two databases can never deadlock the run.
public final class TestPermits: Sendable {
    /// `JOURNEYS_TEST_PERMITS` permits, default 8.
    public static let shared = TestPermits(
        count: ProcessInfo.processInfo.environment["JOURNEYS_TEST_PERMITS"].flatMap(Int.init) ?? 8)
    /// How long a test waits for a permit before going ahead without one. 120 s.
    public static let patience: Duration = .seconds(120)

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    public init(count: Int) {
        state = Mutex(State(available: max(1, count)))
    }

    /// Waits for a permit (at most ``patience``); the returned permit gives it back once.
    public func acquire() async -> TestPermit {
        let id = state.withLock { state -> Int? in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return TestPermit(permits: self) }
        let timeout = Task { [self] in
            try? await Task.sleep(for: Self.patience)
            giveUp(id)
        }
        let granted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(Waiter(id: id, continuation: continuation))
                return false
            }
            if resumeNow { continuation.resume(returning: true) }
        }
        timeout.cancel()
        return TestPermit(permits: granted ? self : nil)
    }

    /// Hands the permit to the longest waiter, or back to the pool.
    func release() {
        let next = state.withLock { state -> Waiter? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }

    /// Lets waiter `id` go ahead without a permit (if it still waits).
    private func giveUp(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }
}

/// One permit of ``TestPermits``; released by ``release()`` or when the last reference goes away.
public final class TestPermit: Sendable {
    private let permits: TestPermits?
    private let released = Atomic<Bool>(false)

    init(permits: TestPermits?) {
        self.permits = permits
    }

    /// Gives the permit back; later calls do nothing.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        permits?.release()
    }

    deinit { release() }
}
