import AccessControl
import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import JourneyStore
import Postgres

/// The `/v1/journeys` routes: start, read, audit trail, and what the app reports.
struct JourneyRoutes: Sendable {
    let database: PostgresClient
    let dependencies: JourneyDependencies

    func register(on router: inout Router) {
        let writer = JourneyWriter(database: database, clock: dependencies.clock)
        let authenticator = RequestAuthenticator(keys: APIKeyStore(client: database),
                                                 clientTokens: dependencies.clientTokens, clock: dependencies.clock)
        let runner = AttemptRunner(writer: writer, dependencies: dependencies)
        let start = StartJourneyHandler(authenticator: authenticator, writer: writer, runner: runner,
                                        idempotency: IdempotencyStore(database: database), dependencies: dependencies)
        let reports = ClientReportHandler(authenticator: authenticator, writer: writer)
        let token = TokenHandler(authenticator: authenticator, writer: writer, runner: runner, dependencies: dependencies)
        let store = EventStore(client: database)

        router.post("/v1/journeys") { try await start.handle($0) }
        router.get("/v1/journeys/{id}") { request in
            _ = try await authenticator.apiKey(request, scope: .journeysRead)
            let id = JourneyID(try RequestAuthenticator.journeyID(request).uuidString.lowercased())
            return try HTTPResponse.json(JourneyView(try await writer.load(id), id: id), encoder: TokenResponse.encoder)
        }
        router.get("/v1/journeys/{id}/events") { request in
            _ = try await authenticator.apiKey(request, scope: .journeysRead)
            let id = JourneyID(try RequestAuthenticator.journeyID(request).uuidString.lowercased())
            let events = try await store.readStream(JourneyRepository.stream(id))
            guard !events.isEmpty else { throw Problem.journeyNotFound() }
            return try AuditTrail.response(journeyID: id.rawValue, events: events)
        }
        router.post("/v1/journeys/{id}/capture-opened") { try await reports.captureOpened($0) }
        router.post("/v1/journeys/{id}/callback") { try await reports.callback($0) }
        router.post("/v1/journeys/{id}/token") { try await token.handle($0) }
    }
}
