import Foundation
import Synchronization

/// The load's shared state: finished keys, answers per status, which clients are retrying, and
/// when the load ended.
final class LoadLedger: Sendable {
    private struct State {
        var keys: [LoadReport.Key] = []
        var statusCounts: [String: Int] = [:]
        /// Per client: since when its current key has been retrying (nil when it is not).
        var retryingSince: [Double?]
        var stoppedAt: Double?
    }

    private let state: Mutex<State>

    init(clients: Int) {
        state = Mutex(State(retryingSince: Array(repeating: nil, count: clients)))
    }

    func count(status: Int) {
        state.withLock { $0.statusCounts[String(status), default: 0] += 1 }
    }

    func finish(_ key: LoadReport.Key) {
        state.withLock {
            $0.keys.append(key)
            $0.retryingSince[key.client] = nil
        }
    }

    func retrying(client: Int, since: Double) {
        state.withLock { $0.retryingSince[client] = since }
    }

    /// Ends the load (once): clients start no new keys from now on.
    func stop(at time: Double) {
        state.withLock { if $0.stoppedAt == nil { $0.stoppedAt = time } }
    }

    var stoppedAt: Double? { state.withLock { $0.stoppedAt } }

    /// The status line: clients retrying, the oldest retry's age, keys finished.
    func statusLine(now: Double) -> String {
        state.withLock { state in
            let retrying = state.retryingSince.compactMap { $0 }
            let oldest = retrying.min().map { now - $0 } ?? 0
            return String(
                format: "waiting=%d oldest=%.1f finished=%d stopped=%d", retrying.count, oldest,
                state.keys.count, state.stoppedAt == nil ? 0 : 1)
        }
    }

    func report(startedAt: Double, endedAt: Double, clients: Int) -> LoadReport {
        state.withLock {
            LoadReport(
                startedAt: startedAt, endedAt: endedAt, clients: clients, statusCounts: $0.statusCounts,
                keys: $0.keys.sorted { $0.firstAttemptAt < $1.firstAttemptAt })
        }
    }
}
