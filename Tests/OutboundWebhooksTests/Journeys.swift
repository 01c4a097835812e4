import AccessControl
import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import OutboundWebhooks
import Postgres
import Testing

/// Takes journeys to their end through the repository (real events in the real store).
struct Journeys: Sendable {
    let repository: JourneyCommandRunner
    let db: TestDatabase

    init(_ db: TestDatabase, clock: TestClock) {
        self.db = db
        repository = JourneyCommandRunner(database: db.app, clock: { clock.now() })
    }

    /// The audit actor the API records for the fixture's key (prefix `abcdefgh`).
    static let fixtureActor = Principal(keyID: UUID(), name: "company", prefix: "abcdefgh", scopes: [.journeysWrite]).actor

    static func sealed(_ label: String) -> SealedField {
        SealedField(ciphertext: Data("sealed:\(label)".utf8).base64EncodedString(), keyID: "k1")
    }

    /// Starts a journey as `actor`; later events are appended by a worker, as in production.
    @discardableResult
    func start(actor: String = fixtureActor, clientReference: String? = "order-42") async throws -> JourneyID {
        let id = JourneyID(UUID().uuidString.lowercased())
        let start = StartJourney(
            journeyID: id, environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
            subject: SealedSubject(
                reference: SubjectReference("ref-\(id.rawValue)"), documentType: .brCPF,
                documentNumber: Self.sealed("doc-12345678909"), name: Self.sealed("Maria Silva"),
                friendlyName: nil, phone: nil, email: nil, notificationChannels: []),
            clientReference: clientReference)
        _ = try await repository.execute(.start(start), journey: id, metadata: EventMetadata(actor: actor))
        return id
    }

    /// A journey that ends approved, with a (sealed) Human Token.
    @discardableResult
    func complete(actor: String = fixtureActor) async throws -> JourneyID {
        let id = try await start(actor: actor)
        let process = ProcessID("proc-\(id.rawValue)")
        let commands: [JourneyCommand] = [
            .recordProcessCreated(
                ProcessCreation(
                    attempt: 1, processID: process, webAppToken: Self.sealed("wat"), processToken: Self.sealed("pt"),
                    link: Self.sealed("link"), tokenExpiresAt: nil)),
            .issueToken,
            .recordCaptureOpened(attempt: 1),
            .recordCallback(attempt: 1, outcome: .success(processID: process)),
            .recordResult(
                attempt: 1,
                snapshot: ProcessSnapshot(
                    state: .finished, result: .ok, humanToken: Self.sealed("human-token-value"), finishedAt: Date())),
        ]
        for command in commands {
            _ = try await repository.execute(command, journey: id, metadata: EventMetadata(actor: "result-fetcher"))
        }
        let (state, _) = try await repository.load(id)
        #expect(state.status == .completed, "the journey completed")
        return id
    }

    /// A journey whose first capture ends with SDK error `code` (73305: the token expired).
    @discardableResult
    func fail(_ code: SDKErrorCode, actor: String = fixtureActor) async throws -> JourneyID {
        let id = try await start(actor: actor)
        let commands: [JourneyCommand] = [
            .recordProcessCreated(
                ProcessCreation(
                    attempt: 1, processID: ProcessID("proc-\(id.rawValue)"), webAppToken: Self.sealed("wat"),
                    processToken: Self.sealed("pt"), link: Self.sealed("link"), tokenExpiresAt: nil)),
            .issueToken,
            .recordCallback(attempt: 1, outcome: .error(code: code)),
        ]
        for command in commands {
            _ = try await repository.execute(command, journey: id, metadata: EventMetadata(actor: "worker"))
        }
        return id
    }

    /// A journey that the company abandons.
    @discardableResult
    func abandon(actor: String = fixtureActor) async throws -> JourneyID {
        let id = try await start(actor: actor)
        _ = try await repository.execute(
            .abandon(reason: .requested("cancelled by the company")), journey: id,
            metadata: EventMetadata(actor: "worker"))
        return id
    }

    /// Waits (bounded) until every committed event is readable in the global order: the MVCC
    /// horizon is cluster-wide and another test's transaction may hold it back for a moment.
    func waitUntilReadable() async throws {
        try await db.waitUntilReadable()
    }
}
