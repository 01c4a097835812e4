import HTTPServer
import Synchronization

/// Collects access log entries for assertions.
final class LogRecorder: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])

    var sink: @Sendable (AccessLogEntry) -> Void {
        { entry in self.entries.withLock { $0.append(entry) } }
    }

    var all: [AccessLogEntry] { entries.withLock { $0 } }

    /// Waits (bounded) until at least `count` entries arrived; completion is logged after the
    /// response left, so a client can be faster than the log.
    func waitFor(count: Int, timeout: Duration = .seconds(5)) async -> [AccessLogEntry] {
        let deadline = ContinuousClock.now + timeout
        while all.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return all
    }
}
