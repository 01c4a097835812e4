import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Testing

@Suite struct JourneyCommandRunnerTests {
    static func startCommand(_ id: JourneyID) -> JourneyCommand {
        .start(
            StartJourney(
                journeyID: id, environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
                subject: SealedSubject(
                    reference: SubjectReference("ref-1"), documentType: .brCPF, documentNumber: sealed("doc"),
                    name: sealed("name"), friendlyName: nil, phone: nil, email: nil, notificationChannels: []),
                clientReference: "order-1"))
    }

    @Test func startThenLoadFoldsTheStream() async throws {
        try await TestDatabase.with { db in
            let commands = JourneyCommandRunner(database: db.app)
            let id = JourneyID(UUID().uuidString.lowercased())
            let outcome = try await commands.execute(Self.startCommand(id), journey: id, metadata: EventMetadata(actor: "test"))
            #expect(!outcome.events.isEmpty)
            #expect(outcome.version == Int64(outcome.events.count))
            let (state, version) = try await commands.load(id)
            #expect(version == outcome.version)
            #expect(state == outcome.state)
            #expect(state.journeyID == id)
            #expect(state.clientReference == "order-1")
            let stored = try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue))
            #expect(stored.map(\.type) == outcome.events.map(\.eventType))
            #expect(stored.allSatisfy { $0.metadata.actor == "test" })
        }
    }

    @Test func domainRefusalsAppendNothing() async throws {
        try await TestDatabase.with { db throws in
            let commands = JourneyCommandRunner(database: db.app)
            let id = JourneyID(UUID().uuidString.lowercased())
            let error = await captureError {
                try await commands.execute(.recordCaptureOpened(attempt: 1), journey: id, metadata: EventMetadata())
            }
            #expect(error is DomainError)
            #expect(try await commands.load(id).version == 0)
        }
    }

    @Test func concurrentCommandsOnOneJourneyAreSerializedByRetry() async throws {
        try await TestDatabase.with(poolSize: 8) { db in
            let commands = JourneyCommandRunner(database: db.app)
            let id = JourneyID(UUID().uuidString.lowercased())
            // Eight racing starts: one applies, the rest see a started journey (refused or a no-op).
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        (try? await commands.execute(Self.startCommand(id), journey: id, metadata: EventMetadata()))?.events
                            .isEmpty == false
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)
            let (state, _) = try await commands.load(id)
            #expect(state.journeyID == id)
            let starts = try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue)).filter {
                $0.type == "JourneyStarted"
            }
            #expect(starts.count == 1)
        }
    }
}
