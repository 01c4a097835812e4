@testable import EventStore
import Foundation
import JourneyTesting
import Postgres
import Synchronization
import Testing

/// Group commit (`append_events_group`, `GroupAppender`): one transaction for many appends to
/// different streams, each with its own outcome.
@Suite struct GroupCommitTests {
    @Test func concurrentGroupedAppendsToManyStreamsVerifyAndShareTransactions() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let streams = (0..<40).map { stream("g\($0)") }
            // 40 writers, each appending 5 times (1 to 3 events) to its own stream with exact versions.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (writer, name) in streams.enumerated() {
                    group.addTask {
                        var version: Int64 = 0
                        for n in 0..<5 {
                            let batch = (0...((writer + n) % 3)).map { event(n * 10 + $0) }
                            let result = try await store.append(
                                batch, to: name, expectedVersion: version == 0 ? .noStream : .exact(version))
                            #expect(result.streamVersion == version + Int64(batch.count))
                            #expect(result.positions.count == batch.count)
                            version = result.streamVersion
                        }
                    }
                }
                try await group.waitForAll()
            }
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact, "\(String(describing: report.firstBreak))")
            #expect(report.streams == 40)
            let all = try await store.readAll(after: .start, limit: 10_000)
            #expect(all.count == report.events)
            var versions: [StreamName: Int64] = [:]
            for event in all {
                #expect(
                    event.streamVersion == (versions[event.streamName] ?? 0) + 1, "stream \(event.streamName) out of global order"
                )
                versions[event.streamName] = event.streamVersion
            }
            // 200 appends in fewer transactions: they were grouped.
            let transactions = Set(all.map(\.transactionID)).count
            #expect(transactions < 200, "\(transactions) transactions for 200 appends")
        }
    }

    @Test func aRefusedAppendFailsAloneWithTheDirectPathsErrorWhileItsGroupCommits() async throws {
        try await TestDatabase.with { db in
            let direct = EventStore(client: db.app, grouping: .off)
            let busy = stream("busy"), dup = stream("dup"), fresh = stream("fresh"), other = stream("other")
            try await direct.append([event(1)], to: busy, expectedVersion: .noStream)
            let stored = event(7)
            let first = try await direct.append([stored], to: dup, expectedVersion: .noStream)

            let directConflict =
                await captureError { try await direct.append([event(2)], to: busy, expectedVersion: .exact(5)) }
                as? EventStoreError
            let directDuplicate =
                await captureError { try await direct.append([stored], to: other, expectedVersion: .any) } as? EventStoreError
            let directEmpty =
                await captureError { try await direct.append([event(1)], to: StreamName(""), expectedVersion: .any) }
                as? EventStoreError

            let appends = [
                GroupedAppend(events: [event(1), event(2)], stream: fresh, expected: .noStream),
                GroupedAppend(events: [event(2)], stream: busy, expected: .exact(5)),
                GroupedAppend(events: [stored], stream: other, expected: .any),
                GroupedAppend(events: [event(1)], stream: StreamName(""), expected: .any),
                GroupedAppend(events: [stored], stream: dup, expected: .noStream),
                GroupedAppend(events: [event(3)], stream: busy, expected: .exact(1)),
            ]
            let outcomes = try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) }
            #expect(outcomes.count == 6)
            guard case .written(let written) = outcomes[0] else { Issue.record("fresh: \(outcomes[0])"); return }
            #expect(written.streamVersion == 2)
            guard case .refused(let conflict) = outcomes[1], case .refused(let duplicate) = outcomes[2],
                case .refused(let empty) = outcomes[3]
            else { Issue.record("\(outcomes)"); return }
            for (grouped, single) in [(conflict, directConflict), (duplicate, directDuplicate), (empty, directEmpty)] {
                #expect(grouped.code == single?.code)
                #expect(grouped.message == single?.message)
                #expect(grouped.currentVersion == single?.currentVersion)
            }
            #expect(conflict.code == .wrongExpectedVersion && conflict.currentVersion == 1)
            // An idempotent retry in a group answers the first write.
            guard case .written(let retry) = outcomes[4] else { Issue.record("dup: \(outcomes[4])"); return }
            #expect(retry == first)
            // The same stream twice in one group: the second is left to append on its own.
            guard case .alone = outcomes[5] else { Issue.record("repeat: \(outcomes[5])"); return }

            let read = try await direct.readStream(fresh)
            #expect(read.map(\.streamVersion) == [1, 2])
            #expect(read.map(\.position) == written.positions)
            #expect(try await direct.streamVersion(busy) == 1)
            #expect(try await direct.streamVersion(other) == nil)
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
        }
    }

    @Test func aGroupMixingStreamsAndBatchSizesChainsEachStream() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let a = stream("a"), b = stream("b"), c = stream("c")
            try await store.append([event(0)], to: b, expectedVersion: .noStream)
            let appends = [
                GroupedAppend(events: (1...10).map { event($0) }, stream: a, expected: .noStream),
                GroupedAppend(events: [event(1)], stream: b, expected: .exact(1)),
                GroupedAppend(events: (1...3).map { event($0) }, stream: c, expected: .any),
            ]
            let outcomes = try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) }
            var positions: [Int64] = []
            for (append, outcome) in zip(appends, outcomes) {
                guard case .written(let result) = outcome else { Issue.record("\(append.stream): \(outcome)"); continue }
                let read = try await store.readStream(append.stream)
                #expect(Array(read.suffix(append.events.count).map(\.position)) == result.positions)
                #expect(Array(read.suffix(append.events.count).map(\.id)) == append.events.map(\.id))
                #expect(result.streamVersion == Int64(read.count))
                positions += result.positions
            }
            #expect(positions == positions.sorted(), "positions follow the group's order")
            // One transaction for the group.
            let all = try await store.readAll(after: .start, limit: 100)
            #expect(Set(all.filter { $0.streamName != b || $0.streamVersion == 2 }.map(\.transactionID)).count == 1)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact && report.events == 15 && report.streams == 3)
        }
    }

    @Test func aStreamLockedElsewhereDoesNotHoldUpItsGroup() async throws {
        try await TestDatabase.with(poolSize: 6) { db in
            let store = EventStore(client: db.app)
            let held = stream("held"), free = stream("free")
            try await store.append([event(0)], to: held, expectedVersion: .noStream)
            let release = TestSignal()
            let appended = Mutex(false)
            let holder = Task {
                try await db.app.transaction { connection in
                    _ = try EventStore.append([event(1)], to: held, expectedVersion: .exact(1), on: connection)
                    appended.withLock { $0 = true }
                    release.waitBlocking()
                }
            }
            try await waitUntil("the holder locks the stream") { appended.withLock { $0 } }
            async let late = captureError { try await store.append([event(2)], to: held, expectedVersion: .exact(1)) }
            let quick = try await store.append([event(1)], to: free, expectedVersion: .noStream)
            #expect(quick.streamVersion == 1, "an append to another stream commits while the held stream waits")
            release.signal()
            try await holder.value
            let error = await late as? EventStoreError
            #expect(error?.code == .wrongExpectedVersion && error?.currentVersion == 2)
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
        }
    }

    @Test func aGroupCutOffMidwayWritesNothing() async throws {
        try await TestDatabase.with(poolSize: 4) { db in
            let store = EventStore(client: db.app, grouping: .off)
            // "b-" sorts after "a-": the group writes a-… first, then waits on b-…'s uncommitted creation.
            let early = stream("a"), blocked = stream("b")
            let release = TestSignal()
            let appended = Mutex(false)
            let holder = Task {
                try await db.app.transaction { connection in
                    _ = try EventStore.append([event(1)], to: blocked, expectedVersion: .noStream, on: connection)
                    appended.withLock { $0 = true }
                    release.waitBlocking()
                }
            }
            try await waitUntil("the holder created the stream") { appended.withLock { $0 } }
            let appends = [
                GroupedAppend(events: (1...3).map { event($0) }, stream: early, expected: .noStream),
                GroupedAppend(events: [event(2)], stream: blocked, expected: .noStream),
            ]
            let group = Task { try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) } }
            try await waitUntil("the group waits on the held stream") {
                try await db.superuser.query(
                    """
                    SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%append_events_group%'
                    """
                ).isEmpty == false
            }
            try await db.superuser.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%append_events_group%' AND pid <> pg_backend_pid()
                """)
            let failure = await captureError { _ = try await group.value }
            #expect(failure != nil, "the cut-off group reports a failure")
            release.signal()
            try await holder.value
            #expect(try await store.readStream(early).isEmpty, "nothing of the cut-off group was written")
            #expect(try await store.streamVersion(early) == nil)
            #expect(try await store.readStream(blocked).count == 1)
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
            // The appender would now append each alone: the same appends succeed.
            let grouped = EventStore(client: db.app)
            #expect(try await grouped.append(appends[0].events, to: early, expectedVersion: .noStream).streamVersion == 3)
        }
    }

    @Test func groupedAndDirectWritersOnSharedStreamsKeepTheGlobalOrder() async throws {
        try await TestDatabase.with(poolSize: 10) { db in
            let grouped = EventStore(client: db.app)
            let streams = (0..<8).map { stream("o\($0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<12 {
                    group.addTask {
                        var generator = SplitMix(seed: UInt64(writer + 11))
                        for n in 0..<40 {
                            let target = streams[Int(generator.next() % UInt64(streams.count))]
                            let batch = (0...Int(generator.next() % 3)).map { event(writer * 1000 + n + $0) }
                            // An order conflict (retry the transaction) writes nothing; anything else fails the test.
                            let error = await captureError {
                                if writer % 3 == 0 {
                                    _ = try await db.app.transaction {
                                        try EventStore.append(batch, to: target, expectedVersion: .any, on: $0)
                                    }
                                } else {
                                    _ = try await grouped.append(batch, to: target, expectedVersion: .any)
                                }
                            }
                            if let error, (error as? EventStoreError)?.code != .orderConflict { throw error }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Another session's open transaction (transaction ids are the cluster's) can hold the
            // last appends past the readable horizon for a moment: wait until all are readable.
            let count = try await db.waitUntilReadable()
            let all = try await grouped.readAll(after: .start, limit: 10_000)
            #expect(all.count == count)
            var versions: [StreamName: Int64] = [:]
            for event in all {
                #expect(
                    event.streamVersion == (versions[event.streamName] ?? 0) + 1, "stream \(event.streamName) out of global order"
                )
                versions[event.streamName] = event.streamVersion
            }
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
        }
    }
}

/// A one-shot signal a blocking thread can wait on.
final class TestSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func waitBlocking() { semaphore.wait() }
}
