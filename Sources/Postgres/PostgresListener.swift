import Foundation
import Synchronization

/// Keeps one connection LISTENing on channels, reconnecting after failures.
///
/// Notifications are wake-ups only: a reconnect can lose them, so the listener reports every
/// (re)established LISTEN as `.listening` and consumers must re-read their source of truth then.
public final class PostgresListener: Sendable {
    public enum Event: Sendable, Equatable {
        /// LISTEN is (again) in place; anything sent while disconnected was lost.
        case listening
        case notification(PostgresNotification)
    }

    public struct Configuration: Sendable {
        /// Pause between reconnect attempts. Default 0.5 s.
        public var reconnectDelay: Double = 0.5
        /// How often the listening thread checks for cancellation. Default 0.2 s.
        public var pollInterval: Double = 0.2
        public init() {}
    }

    public let database: PostgresConfiguration
    public let channels: [String]
    public let configuration: Configuration
    private let stopped = Atomic<Bool>(false)

    public init(_ database: PostgresConfiguration, channels: [String], configuration: Configuration = Configuration()) {
        self.database = database
        self.channels = channels
        self.configuration = configuration
    }

    /// Listens until the surrounding task is cancelled, calling `handler` on the listener's own thread.
    public func run(_ handler: @escaping @Sendable (Event) -> Void) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let thread = Thread { [self] in
                    loop(handler)
                    done.resume()
                }
                thread.name = "postgres.listener"
                thread.start()
            }
        } onCancel: {
            stopped.store(true, ordering: .relaxed)
        }
    }

    private func loop(_ handler: @Sendable (Event) -> Void) {
        while !stopped.load(ordering: .relaxed) {
            guard let connection = try? connectAndListen() else {
                pause(configuration.reconnectDelay)
                continue
            }
            handler(.listening)
            while !stopped.load(ordering: .relaxed) {
                guard let received = try? connection.waitForNotifications(timeout: configuration.pollInterval) else { break }
                received.forEach { handler(.notification($0)) }
            }
        }
    }

    private func connectAndListen() throws -> PostgresConnection {
        let connection = try PostgresConnection.connect(database)
        for channel in channels { try connection.listen(channel) }
        return connection
    }

    private func pause(_ seconds: Double) {
        var remaining = seconds
        while remaining > 0, !stopped.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: min(remaining, 0.05))
            remaining -= 0.05
        }
    }
}
