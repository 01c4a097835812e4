/// The connection pool's bookkeeping as a value type: callers apply the returned action.
struct PoolStateMachine<Connection: AnyObject, Waiter> {
    enum AcquireAction {
        case use(Connection)
        case create
        case wait
        case fail(PostgresError)
    }

    enum ReleaseAction {
        case none
        case handOver(Connection, to: Waiter)
        case createFor(Waiter)
    }

    let maxConnections: Int
    private(set) var idle: [Connection] = []
    private(set) var open = 0
    private(set) var waiters: [(id: Int, waiter: Waiter)] = []
    private(set) var isClosed = false

    init(maxConnections: Int) {
        self.maxConnections = max(1, maxConnections)
    }

    /// A caller wants a connection; `id` registers it as a waiter when none is free.
    mutating func acquire(waiterID id: Int, waiter: Waiter) -> AcquireAction {
        if isClosed { return .fail(PostgresError(.poolClosed, "the connection pool is closed")) }
        if let connection = idle.popLast() { return .use(connection) }
        if open < maxConnections {
            open += 1
            return .create
        }
        waiters.append((id, waiter))
        return .wait
    }

    /// An idle connection when there is one, without registering a waiter.
    mutating func takeIdle() -> Connection? {
        isClosed ? nil : idle.popLast()
    }

    /// A connection comes back; `broken` ones are dropped.
    mutating func release(_ connection: Connection, broken: Bool) -> ReleaseAction {
        if broken || isClosed {
            open -= 1
            return replaceForWaiter()
        }
        if !waiters.isEmpty {
            return .handOver(connection, to: waiters.removeFirst().waiter)
        }
        idle.append(connection)
        return .none
    }

    /// Opening a connection failed; its slot is free again.
    mutating func creationFailed() -> ReleaseAction {
        open -= 1
        return replaceForWaiter()
    }

    /// Removes a waiter that gave up (timeout or cancellation); nil when it was already served.
    mutating func cancelWaiter(id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).waiter
    }

    /// Closes the pool; returns the idle connections to close and the waiters to fail.
    mutating func close() -> (idle: [Connection], waiters: [Waiter]) {
        isClosed = true
        let result = (idle, waiters.map(\.waiter))
        open -= idle.count
        idle = []
        waiters = []
        return result
    }

    private mutating func replaceForWaiter() -> ReleaseAction {
        guard !isClosed, !waiters.isEmpty, open < maxConnections else { return .none }
        open += 1
        return .createFor(waiters.removeFirst().waiter)
    }
}

extension PoolStateMachine: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PoolStateMachine.AcquireAction: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PoolStateMachine.ReleaseAction: Sendable where Connection: Sendable, Waiter: Sendable {}
