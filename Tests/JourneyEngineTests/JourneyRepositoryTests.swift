import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Testing

private func startCommand(_ id: JourneyID) -> JourneyCommand {
    .start(
        StartJourney(
            journeyID: id, environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
            subject: SealedSubject(
                reference: SubjectReference("ref-1"), documentType: .brCPF, documentNumber: sealed("doc"),
                name: sealed("name"), friendlyName: nil, phone: nil, email: nil, notificationChannels: []),
            clientReference: "order-1"))
}

private struct RolledBack: Error {}

@Suite struct JourneyRepositoryTests {
    @Test func executeAppendsInTheCallersTransaction() async throws {
        try await TestDatabase.with { db in
            let id = JourneyID(UUID().uuidString.lowercased())
            let now = Date(timeIntervalSince1970: 1_780_000_000)
            let error = await captureError {
                try await db.app.transaction { connection in
                    let outcome = try JourneyRepository.execute(
                        startCommand(id), journey: id, metadata: EventMetadata(actor: "test"),
                        now: now, randomUnit: 0, on: connection)
                    #expect(try JourneyRepository.load(id, on: connection).version == outcome.version)
                    throw RolledBack()
                }
            }
            #expect(error is RolledBack)
            #expect(try await db.app.withConnection { try JourneyRepository.load(id, on: $0) }.version == 0)

            let outcome = try await db.app.withConnection {
                try JourneyRepository.execute(
                    startCommand(id), journey: id, metadata: EventMetadata(actor: "test"),
                    now: now, randomUnit: 0, on: $0)
            }
            let (state, version) = try await db.app.withConnection { try JourneyRepository.load(id, on: $0) }
            #expect(version == outcome.version)
            #expect(state == outcome.state)
            #expect(state.startedAt == now)
        }
    }
}
