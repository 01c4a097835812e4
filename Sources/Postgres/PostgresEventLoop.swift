import CLibPQ
import Foundation
import Glibc
import Synchronization

/// One thread per pool that waits (epoll) on the sockets of connections with a statement in
/// flight and reads their results, so a single statement costs one thread wake-up (this loop ->
/// the caller) instead of two hops through a connection's queue; one wake-up serves every
/// connection that became ready together.
///
/// The caller sends on its own thread (``PostgresConnection/send(_:)``), then hands the
/// connection to ``await(_:completion:)``; the completion runs on the loop thread.
///
/// A socket stays registered (level-triggered) between statements, so a statement costs no
/// `epoll_ctl`; one that turns readable while idle is dropped from the set, which also tells the
/// pool that the connection needs a liveness check (``isQuiet(_:)``).
///
/// It is also a `TaskExecutor` (``PostgresClient/loopExecutor``): jobs of tasks that prefer it
/// run on the loop thread between epoll waits, so a statement's completion resumes its caller
/// on the same thread, without a wake-up.
final class PostgresEventLoop: Sendable {
    /// What the loop thread shares with callers.
    struct LoopState {
        /// Statements in flight by socket.
        var pending: [Int32: Pending] = [:]
        /// Sockets registered with epoll (see ``watch(_:fd:)``).
        var watched: Set<Int32> = []
        /// Jobs of tasks that prefer this loop as their executor, in arrival order.
        var jobs: [UnownedJob] = []
        var started = false
        var stopped = false
        /// The thread has returned: jobs go to the global executor.
        var exited = false
    }

    /// A statement in flight: the connection, the first result read so far, what to call at the end.
    final class Pending: @unchecked Sendable {
        let connection: PostgresConnection
        let completion: @Sendable (OpaquePointer?) -> Void
        var result: OpaquePointer?
        init(_ connection: PostgresConnection, _ completion: @escaping @Sendable (OpaquePointer?) -> Void) {
            self.connection = connection
            self.completion = completion
        }
    }

    let epoll: Int32
    private let wakeFD: Int32
    let state = Mutex(LoopState())
    /// The loop thread's `pthread_self()`, 0 before it starts.
    private let thread = Atomic<UInt>(0)

    init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wakeFD))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        close(wakeFD)
        close(epoll)
    }

    /// Waits for the result of the statement just sent on `connection`, then calls `completion`
    /// on the loop thread with the first result (nil when the connection broke). Returns false
    /// (and calls nothing) when the socket cannot be watched or the loop is stopped.
    func await(_ connection: PostgresConnection, completion: @escaping @Sendable (OpaquePointer?) -> Void) -> Bool {
        guard isUsable else { return false }
        startIfNeeded()
        let fd = connection.socket
        guard fd >= 0 else { return false }
        let entry = Pending(connection, completion)
        return state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            // Registered under the lock, so an answer the loop saw before `pending` was set
            // (and dropped the socket for) is reported again by the fresh registration.
            guard watch(connection, fd: fd, in: &state) else { return false }
            state.pending[fd] = entry
            return true
        }
    }

    /// Whether the epoll and eventfd descriptors were created.
    var isUsable: Bool { epoll >= 0 && wakeFD >= 0 }

    /// Whether the caller runs on this loop's thread.
    var isCurrentThread: Bool {
        let current = thread.load(ordering: .acquiring)
        return current != 0 && current == UInt(pthread_self())
    }

    /// Ends the thread once it wakes; statements in flight and jobs already queued still
    /// complete first, later jobs go to the global executor.
    func stop() {
        let wasStarted = state.withLock { state -> Bool in
            state.stopped = true
            return state.started
        }
        if wasStarted { signal() }
    }

    func startIfNeeded() {
        let start = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            return true
        }
        guard start else { return }
        // Named from inside: a name set before start does not reach the OS thread (perf, top).
        Thread { [self] in
            Thread.current.name = "postgres.loop"
            thread.store(UInt(pthread_self()), ordering: .releasing)
            run()
        }.start()
    }

    func signal() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            // Jobs first; with jobs still queued (enqueued by those just run), only poll.
            runJobs()
            let timeout: Int32 = state.withLock { $0.jobs.isEmpty } ? -1 : 0
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, 64, timeout) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                abandonJobs()
                return
            }
            for index in 0..<Int(count) {
                let fd = events[index].data.fd
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    continue
                }
                service(fd)
            }
            if state.withLock({ state -> Bool in
                guard state.stopped, state.pending.isEmpty, state.jobs.isEmpty else { return false }
                state.exited = true
                return true
            }) {
                return
            }
        }
    }

    /// Marks the thread gone and hands queued jobs to the global executor.
    private func abandonJobs() {
        let jobs = state.withLock { state -> [UnownedJob] in
            state.exited = true
            defer { state.jobs = [] }
            return state.jobs
        }
        jobs.forEach { globalConcurrentExecutor.enqueue($0) }
    }

    /// Reads what arrived on `fd`; completes its statement when the connection is idle again.
    private func service(_ fd: Int32) {
        guard
            let entry = state.withLock({ state -> Pending? in
                if let entry = state.pending[fd] { return entry }
                unwatch(fd, in: &state)
                return nil
            })
        else { return }
        let handle = entry.connection.handle
        var broken = PQconsumeInput(handle) == 0
        while !broken, PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else {
                finish(fd, entry)
                return
            }
            if entry.result == nil { entry.result = result } else { PQclear(result) }
        }
        if broken || PQstatus(handle) != CONNECTION_OK {
            broken = true
        }
        if broken {
            // The connection broke: drain what libpq still holds, then report.
            while let result = PQgetResult(handle) {
                if entry.result == nil { entry.result = result } else { PQclear(result) }
            }
            finish(fd, entry)
        }
    }

    private func finish(_ fd: Int32, _ entry: Pending) {
        state.withLock { _ = $0.pending.removeValue(forKey: fd) }
        entry.completion(entry.result)
    }
}
