import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Testing

/// `JourneyCommandRunner.execute`: load, decide, then a group-committed append at the loaded
/// version; a writer that moved the stream first makes it load and decide again.
@Suite struct GroupedCommandTests {
    @Test func concurrentCommandsOnManyJourneysApplyOnceEachAndChainIntact() async throws {
        try await TestDatabase.with(poolSize: 8) { db in
            let commands = JourneyCommandRunner(database: db.app)
            let ids = (0..<12).map { _ in JourneyID(UUID().uuidString.lowercased()) }
            // Three racing starts per journey, 36 in all: exactly one applies per journey.
            let applied = await withTaskGroup(of: (JourneyID, Int64?).self) { group in
                for id in ids {
                    for _ in 0..<3 {
                        group.addTask {
                            let outcome = try? await commands.execute(
                                JourneyCommandRunnerTests.startCommand(id), journey: id,
                                metadata: EventMetadata(actor: "test"))
                            return (id, outcome.flatMap { $0.events.isEmpty ? nil : $0.version })
                        }
                    }
                }
                return await group.reduce(into: [JourneyID: [Int64]]()) { result, pair in
                    if let version = pair.1 { result[pair.0, default: []].append(version) }
                }
            }
            let store = EventStore(client: db.app)
            for id in ids {
                #expect(applied[id]?.count == 1, "journey \(id.rawValue)")
                let stored = try await store.readStream(StreamName.journey(id.rawValue))
                #expect(stored.filter { $0.type == "JourneyStarted" }.count == 1)
                let (state, version) = try await commands.load(id)
                #expect(version == Int64(stored.count) && applied[id]?.first == version)
                #expect(state.journeyID == id)
            }
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
        }
    }

    @Test func theOutcomeIsTheFoldedStateAtTheNewVersion() async throws {
        try await TestDatabase.with { db in
            let commands = JourneyCommandRunner(database: db.app)
            let id = JourneyID(UUID().uuidString.lowercased())
            let outcome = try await commands.execute(
                JourneyCommandRunnerTests.startCommand(id), journey: id, metadata: EventMetadata())
            let (state, version) = try await commands.load(id)
            #expect(outcome.state == state && outcome.version == version && outcome.positions.count == outcome.events.count)
            // The same command again is a duplicate or a refusal: nothing is appended.
            let again = try? await commands.execute(
                JourneyCommandRunnerTests.startCommand(id), journey: id, metadata: EventMetadata())
            #expect(again?.events.isEmpty ?? true)
            #expect(try await commands.load(id).version == version)
        }
    }
}
