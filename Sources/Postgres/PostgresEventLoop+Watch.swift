import CLibPQ
import Glibc

/// Which sockets stay registered with the loop's epoll between statements.
///
/// A connection's socket is added once (level-triggered `EPOLLIN`) and left registered while it
/// is idle in the pool. When it turns readable with no statement in flight (a server shutdown's
/// FATAL message, end of file, an answer that beat ``PostgresEventLoop/await(_:completion:)``),
/// the loop removes it, so a registered socket is also proof that nothing arrived while idle.
/// `PostgresConnection.watchedSocket` ties a registration to the connection that made it: a
/// socket number reused by another connection, or by the same one after a reset, is added again.
extension PostgresEventLoop {
    /// Registers `fd` of `connection` unless already registered; call with the state lock held.
    func watch(_ connection: PostgresConnection, fd: Int32, in state: inout LoopState) -> Bool {
        if connection.watchedSocket == fd, state.watched.contains(fd) { return true }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
        var added = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0
        if !added, errno == EEXIST { added = epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) == 0 }
        guard added else {
            state.watched.remove(fd)
            connection.watchedSocket = -1
            return false
        }
        state.watched.insert(fd)
        connection.watchedSocket = fd
        return true
    }

    /// Drops `fd` from epoll; call with the state lock held.
    func unwatch(_ fd: Int32, in state: inout LoopState) {
        guard state.watched.remove(fd) != nil else { return }
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
    }

    /// Whether `connection` (idle, held by the caller) is registered and nothing has arrived on
    /// it since its last statement: then it needs no `poll` to check for a server shutdown.
    func isQuiet(_ connection: PostgresConnection) -> Bool {
        let fd = connection.socket
        guard fd >= 0, connection.watchedSocket == fd else { return false }
        return state.withLock { $0.watched.contains(fd) }
    }

    /// Before blocking calls on `connection` (whose answers the loop must not wake for): drops
    /// its registration and returns whether it was quiet (see ``isQuiet(_:)``).
    func unwatchQuiet(_ connection: PostgresConnection) -> Bool {
        let fd = connection.socket
        guard fd >= 0, connection.watchedSocket == fd else { return false }
        return state.withLock { state -> Bool in
            guard state.watched.contains(fd) else { return false }
            unwatch(fd, in: &state)
            return true
        }
    }
}
