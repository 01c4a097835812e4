import Foundation
import Synchronization

/// A process-wide bound on test databases alive at once, so a parallel run never holds hundreds
/// of pools, servers and sockets together (Foundation's socket thread stops working for
/// descriptors above 1024).
///
/// Each permit is a slot: a cluster of its own (``TestCluster/status(slot:)``) that no other
/// live test database uses. The log's readers wait for the cluster-wide MVCC horizon, so a test's
/// open transaction would otherwise hold back every other test's followers.
///
/// ``TestDatabase/create(migrated:poolSize:)`` takes a permit; ``TestDatabase/drop()`` (or the
/// last copy of the database going away) gives it back. A test that waits longer than
/// ``patience`` goes ahead without one (on slot 0), so a test holding two databases can never
/// deadlock the run.
public final class TestPermits: Sendable {
    /// `JOURNEYS_TEST_PERMITS` permits, default 8.
    public static let shared = TestPermits(
        count: ProcessInfo.processInfo.environment["JOURNEYS_TEST_PERMITS"].flatMap(Int.init) ?? 8)
    /// How long a test waits for a permit before going ahead without one. 120 s.
    public static let patience: Duration = .seconds(120)

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Int?, Never>
    }

    private struct State {
        var free: [Int]
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// `count` permits: slots 0 to `count - 1`.
    public init(count: Int) {
        state = Mutex(State(free: Array(0..<max(1, count))))
    }

    /// Waits for a permit (at most ``patience``); the returned permit gives it back once.
    public func acquire() async -> TestPermit {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timeout = Task { [self] in
            try? await Task.sleep(for: Self.patience)
            giveUp(id)
        }
        defer { timeout.cancel() }
        let slot = await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            let free = state.withLock { state -> Int? in
                if !state.free.isEmpty { return state.free.removeFirst() }
                state.waiters.append(Waiter(id: id, continuation: continuation))
                return nil
            }
            if let free { continuation.resume(returning: free) }
        }
        return TestPermit(permits: slot == nil ? nil : self, slot: slot)
    }

    /// Hands slot `slot` to the longest waiter, or back to the pool.
    func release(_ slot: Int) {
        let next = state.withLock { state -> Waiter? in
            if state.waiters.isEmpty {
                state.free.append(slot)
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume(returning: slot)
    }

    /// Lets waiter `id` go ahead without a permit (if it still waits).
    private func giveUp(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: nil)
    }
}

/// One permit of ``TestPermits``; released by ``release()`` or when the last reference goes away.
public final class TestPermit: Sendable {
    private let permits: TestPermits?
    /// The cluster this permit's database lives in: its own slot, or 0 when it went ahead without one.
    public let slot: Int
    private let released = Atomic<Bool>(false)

    init(permits: TestPermits?, slot: Int?) {
        self.permits = permits
        self.slot = slot ?? 0
    }

    /// Gives the permit back; later calls do nothing.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        permits?.release(slot)
    }

    deinit { release() }
}
