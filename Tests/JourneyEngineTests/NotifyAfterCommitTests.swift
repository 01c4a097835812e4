import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Synchronization
import Testing

/// Every commit of the command path wakes the log's followers (NOTIFY on the event store's channel).
@Suite struct NotifyAfterCommitTests {
    /// What a LISTEN connection received.
    final class Received: Sendable {
        let events = Mutex<[PostgresListener.Event]>([])
        var listening: Bool { events.withLock { $0.contains(.listening) } }
        var notifications: Int {
            events.withLock { $0.filter { if case .notification = $0 { true } else { false } }.count }
        }
        /// Whether the test's own NOTIFY with `payload` arrived.
        func arrived(_ payload: String) -> Bool {
            events.withLock { $0.contains { if case .notification(let n) = $0 { n.payload == payload } else { false } } }
        }
    }

    /// Notifies the channel with `marker` and waits for it: notifications arrive in commit order,
    /// so one committed before the marker has arrived by then.
    static func markAndWait(_ db: TestDatabase, _ received: Received, _ marker: String) async throws {
        try await db.app.query("SELECT pg_notify(\(EventStore.notificationChannel), \(marker))")
        try await waitUntil("the marker \(marker) arrives") { received.arrived(marker) }
    }

    @Test func aCommittedCommandNotifiesAndARefusedOneDoesNot() async throws {
        try await TestDatabase.with { db in
            let received = Received()
            let listener = PostgresListener(db.app.database, channels: [EventStore.notificationChannel])
            let listening = Task { await listener.run { event in received.events.withLock { $0.append(event) } } }
            defer { listening.cancel() }
            try await waitUntil("the LISTEN connection is up") { received.listening }

            let commands = JourneyCommandRunner(database: db.app)
            let id = JourneyID(UUID().uuidString.lowercased())
            let refusal = await captureError {
                try await commands.execute(.recordCaptureOpened(attempt: 1), journey: id, metadata: EventMetadata())
            }
            #expect(refusal is DomainError)
            try await Self.markAndWait(db, received, "marker-1")
            #expect(received.notifications == 1, "only the marker")

            try await commands.execute(
                JourneyCommandRunnerTests.startCommand(id), journey: id, metadata: EventMetadata(actor: "test"))
            try await waitUntil("the command's notification") { received.notifications >= 2 }
        }
    }

    /// A start's first transaction commits quietly (`notify: false`); its caller wakes the
    /// followers once, after the attempt's transaction.
    @Test func aTransactionWithoutNotifyStaysQuietUntilTheCallerNotifies() async throws {
        try await TestDatabase.with { db in
            let received = Received()
            let listener = PostgresListener(db.app.database, channels: [EventStore.notificationChannel])
            let listening = Task { await listener.run { event in received.events.withLock { $0.append(event) } } }
            defer { listening.cancel() }
            try await waitUntil("the LISTEN connection is up") { received.listening }

            let commands = JourneyCommandRunner(database: db.app)
            let id = JourneyID(UUID.random().uuidString.lowercased())
            let version = try await commands.transaction(notify: false) { context in
                try context.execute(
                    JourneyCommandRunnerTests.startCommand(id), journey: id,
                    metadata: EventMetadata(actor: "test")
                ).version
            }
            #expect(version > 0)
            try await Self.markAndWait(db, received, "marker-1")
            #expect(received.notifications == 1, "only the marker")

            commands.notifyAppended()
            try await waitUntil("the caller's notification") { received.notifications >= 2 }
            try await Self.markAndWait(db, received, "marker-2")
            #expect(received.notifications == 3, "the caller's one notification between the markers")
        }
    }
}
