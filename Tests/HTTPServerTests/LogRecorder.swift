import HTTPServer
import JourneyTesting
import Synchronization

/// Collects access log entries for assertions.
final class LogRecorder: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])

    var sink: @Sendable (AccessLogEntry) -> Void {
        { entry in self.entries.withLock { $0.append(entry) } }
    }

    var all: [AccessLogEntry] { entries.withLock { $0 } }

    /// Waits until at least `count` entries arrived; completion is logged after the response
    /// left, so a client can be faster than the log.
    func waitFor(count: Int) async throws -> [AccessLogEntry] {
        try await JourneyTesting.waitFor("\(count) access log entries") {
            let entries = all
            return entries.count >= count ? entries : nil
        }
    }
}
