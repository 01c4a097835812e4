import Dispatch
import Synchronization

/// A pool slot: a connection and the serial queue (thread) its blocking calls run on.
final class PooledConnection: Sendable {
    let queue = DispatchQueue(label: "postgres.connection")
    private let connection = Mutex<PostgresConnection?>(nil)

    /// Opens the connection; call on `queue`.
    func open(_ configuration: PostgresConfiguration) throws {
        let opened = try PostgresConnection.connect(configuration)
        connection.withLock { $0 = opened }
    }

    /// Before lending: notices a server restart and reconnects; call on `queue`.
    func prepareForUse() throws {
        guard let current = connection.withLock({ $0 }) else {
            throw PostgresError(.connectionClosed, "the connection is closed")
        }
        if !current.checkAlive() { try current.reset() }
    }

    /// Runs `body` on the connection's queue.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                guard let current = self.connection.withLock({ $0 }) else {
                    continuation.resume(throwing: PostgresError(.connectionClosed, "the connection is closed"))
                    return
                }
                continuation.resume(with: Result { try body(current) })
            }
        }
    }

    var isUsable: Bool { connection.withLock { $0?.isUsable ?? false } }

    func close() { connection.withLock { $0 = nil } }
}
