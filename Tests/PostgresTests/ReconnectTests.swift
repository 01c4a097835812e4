import EmbeddedPostgres
import Foundation
import JourneyTesting
import Postgres
import Testing

/// Uses a cluster of its own: restarting the shared test cluster would disturb other tests.
@Suite struct ReconnectTests {
    @Test func poolAndListenerRecoverAfterServerRestart() async throws {
        let cluster = EmbeddedPostgres(.init(directory: "/tmp/journeys-test-pg-restart-\(getpid())", durable: false))
        let status = try cluster.start()
        defer { try? cluster.stop(); try? FileManager.default.removeItem(atPath: "/tmp/journeys-test-pg-restart-\(getpid())") }
        let client = try PostgresClient(
            url: status.url(user: "postgres", database: "postgres"),
            configuration: .init(maxConnections: 2))
        defer { client.close() }
        let pidBefore = try await client.query("SELECT pg_backend_pid()").first!.decode(0, as: Int32.self)

        let listener = PostgresListener(try PostgresConfiguration(status.superuserURL), channels: ["restart_test"])
        let (events, continuation) = AsyncStream<PostgresListener.Event>.makeStream()
        let listening = Task { await listener.run { continuation.yield($0) } }
        defer { listening.cancel() }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .listening)

        try cluster.restart()

        // The idle pooled connection notices the restart and reconnects transparently.
        let pidAfter = try await client.query("SELECT pg_backend_pid()").first!.decode(0, as: Int32.self)
        #expect(pidAfter != pidBefore)
        // The listener re-establishes LISTEN and says so.
        #expect(await iterator.next() == .listening)
        try await client.withConnection { try $0.notify("restart_test", payload: "after") }
        guard case .notification(let note)? = await iterator.next() else {
            Issue.record("no notification after restart")
            return
        }
        #expect(note.payload == "after")
    }
}
