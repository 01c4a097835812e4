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
    }

    @Test func aCommittedCommandNotifiesAndARefusedOneDoesNot() async throws {
        let db = try await TestDatabase.create()
        defer { Task { await db.drop() } }
        let received = Received()
        let listener = PostgresListener(db.app.database, channels: [EventStore.notificationChannel])
        let listening = Task { await listener.run { event in received.events.withLock { $0.append(event) } } }
        defer { listening.cancel() }
        try await waitUntil { received.listening }

        let commands = JourneyCommandRunner(database: db.app)
        let id = JourneyID(UUID().uuidString.lowercased())
        let refusal = await captureError {
            try await commands.execute(.recordCaptureOpened(attempt: 1), journey: id, metadata: EventMetadata())
        }
        #expect(refusal is DomainError)
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.notifications == 0)

        try await commands.execute(JourneyCommandRunnerTests.startCommand(id), journey: id, metadata: EventMetadata(actor: "test"))
        try await waitUntil { received.notifications >= 1 }
        #expect(received.notifications >= 1)
    }

    /// A start's first transaction commits quietly (`notify: false`); its caller wakes the
    /// followers once, after the attempt's transaction.
    @Test func aTransactionWithoutNotifyStaysQuietUntilTheCallerNotifies() async throws {
        let db = try await TestDatabase.create()
        defer { Task { await db.drop() } }
        let received = Received()
        let listener = PostgresListener(db.app.database, channels: [EventStore.notificationChannel])
        let listening = Task { await listener.run { event in received.events.withLock { $0.append(event) } } }
        defer { listening.cancel() }
        try await waitUntil { received.listening }

        let commands = JourneyCommandRunner(database: db.app)
        let id = JourneyID(UUID.random().uuidString.lowercased())
        let version = try await commands.transaction(notify: false) { context in
            try context.execute(JourneyCommandRunnerTests.startCommand(id), journey: id,
                                metadata: EventMetadata(actor: "test")).version
        }
        #expect(version > 0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.notifications == 0)

        commands.notifyAppended()
        try await waitUntil { received.notifications >= 1 }
        #expect(received.notifications == 1)
    }

    private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(2)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }
}
