import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Projections

struct Injected: Error {}

/// Appends `count` journeys through the repository, journey i taken through `i % 6 + 1` steps:
/// start, process created, token issued, capture opened, an SDK error callback (retry
/// scheduled), or a success callback and an approved result (completed).
@discardableResult
func seedJourneys(_ db: TestDatabase, count: Int, tag: String = "a") async throws -> [JourneyID] {
    let repository = JourneyCommandRunner(database: db.app)
    var ids: [JourneyID] = []
    for i in 0..<count {
        let id = JourneyID("\(tag)-\(i)-\(UUID().uuidString.lowercased())")
        ids.append(id)
        let process = ProcessID("proc-\(id.rawValue)-1")
        var commands: [JourneyCommand] = [
            .start(
                StartJourney(
                    journeyID: id, environment: i % 2 == 0 ? .uat : .prod, flow: Flow("humantoken"),
                    purpose: .creditProcess,
                    subject: SealedSubject(
                        reference: SubjectReference("ref-\(i)"), documentType: .brCPF,
                        documentNumber: sealed("doc-\(i)"), notificationChannels: []),
                    clientReference: "order-\(i)")),
            .recordProcessCreated(
                ProcessCreation(
                    attempt: 1, processID: process, webAppToken: sealed("wat"), processToken: sealed("pt"),
                    link: sealed("link"), tokenExpiresAt: nil)),
            .issueToken,
            .recordCaptureOpened(attempt: 1),
        ]
        switch i % 6 {
        case 4: commands.append(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)))
        case 5:
            commands.append(.recordCallback(attempt: 1, outcome: .success(processID: process)))
            commands.append(
                .recordResult(
                    attempt: 1,
                    snapshot: ProcessSnapshot(
                        state: .finished, result: .ok, humanToken: sealed("ht"), finishedAt: Date())))
        default: commands = Array(commands.prefix(i % 6 + 1))
        }
        for command in commands {
            _ = try await repository.execute(command, journey: id, metadata: EventMetadata(actor: "test"))
        }
    }
    return ids
}

func projectedState(_ db: TestDatabase, _ id: JourneyID) async throws -> JourneyState? {
    try await db.owner.withConnection { try JourneyStateProjection.state(of: id.rawValue, on: $0) }
}

/// Every row of both read models as JSON text, in key order.
func snapshotRows(_ client: PostgresClient) async throws -> [String] {
    let states = try await client.query("SELECT to_jsonb(s)::text FROM journey_state s ORDER BY journey_id")
        .map { try $0.decode(0, as: String.self) }
    let attempts = try await client.query("SELECT to_jsonb(a)::text FROM journey_attempts a ORDER BY journey_id, attempt")
        .map { try $0.decode(0, as: String.self) }
    return states + attempts
}
