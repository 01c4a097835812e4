import Foundation
import Synchronization
import Testing

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
        /// Lower goes first: the ticket of the test's suite (see ``acquire()``).
        let ticket: Int
        let continuation: CheckedContinuation<Int?, Never>
    }

    private struct State {
        var free: [Int]
        /// In (ticket, id) order.
        var waiters: [Waiter] = []
        var nextID = 0
        /// The ticket of each suite that asked for a permit: its first request's id.
        var suiteTickets: [Test.ID: Int] = [:]
        /// An ``alone(_:)`` test waiting for every permit at once.
        var exclusive: CheckedContinuation<[Int], Never>?
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
    ///
    /// It takes every permit at once when no other test waits for one (near the end of a run),
    /// holding none meanwhile: taking them one by one kept permits idle while the rest of the run
    /// went ahead. After ``patience`` it goes ahead with the permits then free.
    public func alone<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let gate = await Self.aloneGate.acquire()
        defer { gate.release() }
        let timeout = Task { [self] in
            try? await Task.sleep(for: Self.patience)
            giveUpExclusive()
        }
        let slots = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            let ready = state.withLock { state -> [Int]? in
                guard state.free.count == count, state.waiters.isEmpty else {
                    state.exclusive = continuation
                    return nil
                }
                defer { state.free = [] }
                return state.free
            }
            if let ready { continuation.resume(returning: ready) }
        }
        timeout.cancel()
        defer { for slot in slots { release(slot) } }
        return try await Self.$reservation.withValue(Reservation(slots: slots)) { try await body() }
    }

    /// Waits for a permit (at most ``patience``); the returned permit gives it back once.
    ///
    /// Waiters go in the order of their suite's first request, not their own: the tests of a
    /// `.serialized` suite ask one after another, and in arrival order each one queued behind the
    /// whole run, so those suites finished last, one test at a time, on an otherwise idle machine.
    public func acquire() async -> TestPermit {
        if let reservation = Self.reservation, let slot = reservation.take() {
            return TestPermit(slot: slot) { reservation.giveBack($0) }
        }
        let suite = Test.current?.id.parent
        let (id, ticket) = state.withLock { state in
            state.nextID += 1
            guard let suite else { return (state.nextID, state.nextID) }
            let ticket = state.suiteTickets[suite] ?? state.nextID
            state.suiteTickets[suite] = ticket
            return (state.nextID, ticket)
        }
        let timeout = Task { [self] in
            try? await Task.sleep(for: Self.patience)
            giveUp(id)
        }
        defer { timeout.cancel() }
        let slot = await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            let free = state.withLock { state -> Int? in
                if !state.free.isEmpty { return state.free.removeFirst() }
                let index =
                    state.waiters.firstIndex { ($0.ticket, $0.id) > (ticket, id) } ?? state.waiters.endIndex
                state.waiters.insert(Waiter(id: id, ticket: ticket, continuation: continuation), at: index)
                return nil
            }
            if let free { continuation.resume(returning: free) }
        }
        guard let slot else { return TestPermit(slot: 0, giveBack: nil) }
        return TestPermit(slot: slot) { [self] in release($0) }
    }

    /// Hands slot `slot` to the first waiter, or back to the pool (and then every permit to a
    /// waiting ``alone(_:)`` test once all are free).
    func release(_ slot: Int) {
        enum Next {
            case waiter(Waiter)
            case exclusive(CheckedContinuation<[Int], Never>, [Int])
        }
        let next = state.withLock { state -> Next? in
            if !state.waiters.isEmpty { return .waiter(state.waiters.removeFirst()) }
            state.free.append(slot)
            guard state.free.count == count, let exclusive = state.exclusive else { return nil }
            state.exclusive = nil
            defer { state.free = [] }
            return .exclusive(exclusive, state.free)
        }
        switch next {
        case .waiter(let waiter): waiter.continuation.resume(returning: slot)
        case .exclusive(let continuation, let slots): continuation.resume(returning: slots)
        case nil: break
        }
    }

    /// Lets a waiting ``alone(_:)`` test go ahead with the permits free now.
    private func giveUpExclusive() {
        let taken = state.withLock { state -> (CheckedContinuation<[Int], Never>, [Int])? in
            guard let exclusive = state.exclusive else { return nil }
            state.exclusive = nil
            defer { state.free = [] }
            return (exclusive, state.free)
        }
        taken.map { $0.0.resume(returning: $0.1) }
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
