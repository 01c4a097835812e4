/// The pool's bookkeeping, with no I/O: idle connections by destination, each with its peer's
/// address and the instant it went idle. ``take(_:at:now:)`` and ``put(_:_:address:now:)`` hand
/// back the connections to close (idle too long, or over a cap); the pool closes them outside
/// its lock.
struct IdleConnections<Connection> {
    struct Entry {
        var connection: Connection
        var address: IPAddress
        var since: ContinuousClock.Instant
    }

    /// Most idle connections kept for one destination.
    let maxPerDestination: Int
    /// Most idle connections kept in all.
    let maxTotal: Int
    /// How long a connection may stay idle before it is closed.
    let idleTimeout: Duration
    /// Each destination's idle connections, the most recently used last.
    private var entries: [ConnectionPool.Destination: [Entry]] = [:]
    /// Idle connections in all.
    private(set) var count = 0

    init(maxPerDestination: Int, maxTotal: Int, idleTimeout: Duration) {
        self.maxPerDestination = maxPerDestination
        self.maxTotal = maxTotal
        self.idleTimeout = idleTimeout
    }

    /// The most recently used idle connection to `destination` whose peer is one of `addresses`
    /// (the ones the caller checked: a connection elsewhere is never reused), and those to close.
    mutating func take(_ destination: ConnectionPool.Destination, at addresses: [IPAddress], now: ContinuousClock.Instant)
        -> (taken: Connection?, close: [Connection])
    {
        let close = expire(now: now)
        guard var list = entries[destination], let index = list.lastIndex(where: { addresses.contains($0.address) }) else {
            return (nil, close)
        }
        let taken = list.remove(at: index).connection
        entries[destination] = list.isEmpty ? nil : list
        count -= 1
        return (taken, close)
    }

    /// Keeps `connection` idle for `destination`; returns those to close: the expired ones, the
    /// connection itself when its destination is at its cap, or the oldest idle one when the
    /// pool is.
    mutating func put(
        _ connection: Connection, _ destination: ConnectionPool.Destination, address: IPAddress, now: ContinuousClock.Instant
    ) -> [Connection] {
        var close = expire(now: now)
        guard entries[destination, default: []].count < maxPerDestination else {
            close.append(connection)
            return close
        }
        entries[destination, default: []].append(Entry(connection: connection, address: address, since: now))
        count += 1
        if count > maxTotal, let oldest = entries.min(by: { $0.value[0].since < $1.value[0].since })?.key {
            close.append(entries[oldest]!.removeFirst().connection)
            if entries[oldest]!.isEmpty { entries[oldest] = nil }
            count -= 1
        }
        return close
    }

    /// Removes every connection idle for `idleTimeout` or longer and returns them.
    private mutating func expire(now: ContinuousClock.Instant) -> [Connection] {
        var expired: [Connection] = []
        for (destination, list) in entries where list.contains(where: { now - $0.since >= idleTimeout }) {
            let kept = list.filter { now - $0.since < idleTimeout }
            expired += list.filter { now - $0.since >= idleTimeout }.map(\.connection)
            entries[destination] = kept.isEmpty ? nil : kept
        }
        count -= expired.count
        return expired
    }
}
