import Foundation
import JourneyTesting
@testable import Postgres
import Testing

/// The event loop keeps a pooled connection's socket registered between statements and skips
/// the liveness `poll` for one on which nothing arrived; these check that what does arrive on an
/// idle connection (a notification, the end of its session) and a switch to the connection's
/// queue still give the right answers.
@Suite struct LoopWatchTests {
    static func pid(_ client: PostgresClient) async throws -> Int32 {
        try await client.query("SELECT pg_backend_pid()").first!.decode(0, as: Int32.self)
    }

    @Test func anIdleConnectionWhoseSessionEndedIsReplacedBeforeTheNextQuery() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            let pid = try await Self.pid(client)
            #expect(try await Self.pid(client) == pid)
            try await db.superuser.query("SELECT pg_terminate_backend(\(pid))")
            // The backend process is gone, so its socket is closed: the FATAL message and the end of
            // file are both on their way (pg_stat_activity forgets it a little before it exits).
            try await waitUntil("the backend process exits") { kill(pid_t(pid), 0) != 0 && errno == ESRCH }
            // The loop saw them arrive on the idle, registered socket and dropped it.
            try await waitUntil("the loop dropped the idle socket") { client.loop.state.withLock { $0.watched.isEmpty } }
            let after = try await Self.pid(client)
            #expect(after != pid)
            #expect(try await Self.pid(client) == after)
            #expect(client.openConnections == 1)
        }
    }

    @Test func aNotificationOnAnIdleConnectionLeavesTheNextAnswerIntact() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            try await client.withConnection { try $0.execute(unsafeSQL: "LISTEN loop_watch") }
            #expect(try await client.query("SELECT \(1) + 1").first?.decode(0, as: Int.self) == 2)
            for round in 0..<5 {
                try await db.superuser.query("SELECT pg_notify('loop_watch', \(String(round)))")
                // The notification arrived on the idle, registered socket: the loop dropped it.
                try await waitUntil("the loop saw the notification") { client.loop.state.withLock { $0.watched.isEmpty } }
                #expect(try await client.query("SELECT \(round) + 1").first?.decode(0, as: Int.self) == round + 1)
            }
        }
    }

    @Test func queriesAlternatingWithTheQueuePathAnswerAlike() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 2))
            defer { client.close() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<6 {
                    group.addTask {
                        for round in 0..<40 {
                            let value = task * 1000 + round
                            #expect(try await client.query("SELECT \(value) + 1").first?.decode(0, as: Int.self) == value + 1)
                            let inside = try await client.transaction { connection in
                                try connection.query("SELECT \(value) * 2").first?.decode(0, as: Int.self)
                            }
                            #expect(inside == value * 2)
                            let queued = try await client.withConnection {
                                try $0.query("SELECT \(value) - 1").first?.decode(0, as: Int.self)
                            }
                            #expect(queued == value - 1)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(client.openConnections <= 2)
        }
    }
}
