import Testing
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

/// Starts a server on a free port, runs `body` with the port, and always shuts it down.
func withServer<T>(
    _ router: Router,
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(port: 0),
    log: LogRecorder = LogRecorder(),
    _ body: (Int) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, router: router, accessLog: log.sink)
    try server.start()
    do {
        let port = try #require(server.port)
        let result = try await body(port)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
