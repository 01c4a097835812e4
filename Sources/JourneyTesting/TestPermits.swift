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
    /// How many permits there are.
    public let count: Int

    /// `count` permits: slots 0 to `count - 1`.
    public init(count: Int) {
        self.count = max(1, count)
        state = Mutex(State(free: Array(0..<max(1, count))))
    }

    /// The slots an ``alone(_:)`` test holds, lent to the databases it creates.
    @TaskLocal static var reservation: Reservation?
    /// One ``alone(_:)`` test at a time, so two never each hold half of the permits.
    private static let aloneGate = TestPermits(count: 1)

    /// The slot of the cluster a test may stop and start: one past the shared permits' slots, so
    /// no other test's database is on it (slot 0 also serves tests that use the cluster directly).
    public static var restartableSlot: Int { shared.count }
    /// One test at a time on the restartable cluster.
    private static let restartableGate = TestPermits(count: 1)

    /// A permit on the restartable cluster (``restartableSlot``); waits while another test holds it.
    static func acquireRestartable() async -> TestPermit {
        let gate = await restartableGate.acquire()
        return TestPermit(slot: restartableSlot) { _ in gate.release() }
    }

    /// Runs `body` with every permit held: no other test database is alive meanwhile, so a test
    /// whose timing a busy run would upset (a PostgreSQL restart mid-run) sees a quiet machine.
    /// The databases `body` creates take the held slots.
    public func alone<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let gate = await Self.aloneGate.acquire()
        defer { gate.release() }
        var held: [TestPermit] = []
        for _ in 0..<count { held.append(await acquire()) }
        defer { for permit in held { permit.release() } }
        let reservation = Reservation(slots: held.filter(\.owned).map(\.slot))
        return try await Self.$reservation.withValue(reservation) { try await body() }
    }

    /// Waits for a permit (at most ``patience``); the returned permit gives it back once.
    public func acquire() async -> TestPermit {
        if let reservation = Self.reservation, let slot = reservation.take() {
            return TestPermit(slot: slot) { reservation.giveBack($0) }
        }
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
        guard let slot else { return TestPermit(slot: 0, giveBack: nil) }
        return TestPermit(slot: slot) { [self] in release($0) }
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
    /// The cluster this permit's database lives in: its own slot, or 0 when it went ahead without one.
    public let slot: Int
    private let giveBack: (@Sendable (Int) -> Void)?
    private let released = Atomic<Bool>(false)

    init(slot: Int, giveBack: (@Sendable (Int) -> Void)?) {
        self.slot = slot
        self.giveBack = giveBack
    }

    /// Whether the slot is this permit's own (not slot 0 after running out of patience).
    var owned: Bool { giveBack != nil }

    /// Gives the permit back; later calls do nothing.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        giveBack?(slot)
    }

    deinit { release() }
}

/// Slots held by an ``TestPermits/alone(_:)`` test.
final class Reservation: Sendable {
    private let slots: Mutex<[Int]>

    init(slots: [Int]) { self.slots = Mutex(slots) }

    func take() -> Int? { slots.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
    func giveBack(_ slot: Int) { slots.withLock { $0.append(slot) } }
}
