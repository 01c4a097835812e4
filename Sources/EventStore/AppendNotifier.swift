import Postgres
import Synchronization

/// Sends `NOTIFY journeys_events` after appends commit, coalescing bursts into one
/// notification in flight at a time. Subscribers only use it to wake up early, so it commits
/// asynchronously (``EventStoreStatements/wakeUp(_:)``): no WAL flush between an append and
/// the wake-up of its followers.
final class AppendNotifier: Sendable {
    private let client: PostgresClient
    private let state = Mutex<(sending: Bool, pending: Bool)>((false, false))

    init(client: PostgresClient) {
        self.client = client
    }

    /// Requests a notification; returns at once.
    func signal() {
        let start = state.withLock { state -> Bool in
            if state.sending {
                state.pending = true
                return false
            }
            state.sending = true
            return true
        }
        guard start else { return }
        Task.detached { [self] in await drain() }
    }

    private func drain() async {
        while true {
            try? await client.withConnection { _ = try $0.query(EventStoreStatements.wakeUp(EventStore.notificationChannel)) }
            let again = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.sending = false
                return false
            }
            if !again { return }
        }
    }
}
