import CLibPQ
import Foundation

extension PostgresConnection {
    /// Subscribes this connection to a channel.
    public func listen(_ channel: String) throws {
        try execute(unsafeSQL: PostgresStatements.listen(channel))
    }

    /// Sends a notification through `pg_notify`, with the payload as a bind.
    public func notify(_ channel: String, payload: String = "") throws {
        try query(PostgresStatements.notify(channel, payload: payload))
    }

    /// Waits up to `timeout` seconds for notifications and returns those that arrived.
    /// Throws `connection_closed` when the connection broke while waiting.
    public func waitForNotifications(timeout: Double) throws -> [PostgresNotification] {
        var received = drainNotifications()
        if !received.isEmpty { return received }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        if ready < 0, errno != EINTR {
            throw PostgresError(.connectionClosed, "poll failed on the LISTEN connection")
        }
        guard PQconsumeInput(handle) == 1, isUsable else {
            throw PostgresError(.connectionClosed, "LISTEN connection lost: \(Self.lastError(handle))")  // check-sql: not SQL
        }
        received = drainNotifications()
        return received
    }

    private func drainNotifications() -> [PostgresNotification] {
        var received: [PostgresNotification] = []
        while let notify = PQnotifies(handle) {
            let message = notify.pointee
            received.append(
                PostgresNotification(
                    channel: String(cString: message.relname),
                    payload: message.extra.map { String(cString: $0) } ?? "",
                    backendPID: message.be_pid))
            PQfreemem(notify)
        }
        return received
    }

    /// Quotes an identifier (`"name"`, doubling inner quotes).
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
