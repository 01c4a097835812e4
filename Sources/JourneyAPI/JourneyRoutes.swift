import AccessControl
import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine
import Observability
import Postgres

/// The `/v1/journeys` routes: start, read, cancel, audit trail, what the app reports, and Unico's webhook;
/// and `/v1/events`, the tenant's journey steps for companies that pull.
///
/// Result fetching: after a success callback (or an accepted webhook) has been committed, the
/// route fetches the result (`Journeys.fetchResult`) before answering, outside any transaction. Awaiting it keeps every
/// Unico call owned by a request task (no detached work to leak or to lose at shutdown) and costs
/// one Get Process (bounded by the client's request timeout); a failed fetch does not fail the
/// request: the journey stays `awaitingResult` and its `nextDue` asks a worker to fetch again.
struct JourneyRoutes: Sendable {
    /// The process's use cases (and its event store).
    let journeys: Journeys
    /// API keys and client tokens, with the process's one verified-key cache.
    let authenticator: RequestAuthenticator
    /// Where the journey listing reads (a standby when one is configured).
    let reports: ReportsDatabase
    let dependencies: JourneyDependencies
    let metrics: MetricsRegistry

    func register(on router: inout Router) {
        let (journeys, authenticator) = (self.journeys, self.authenticator)
        let token = TokenHandler(authenticator: authenticator, journeys: journeys)
        let start = StartJourneyHandler(authenticator: authenticator, journeys: journeys, dependencies: dependencies)
        let reports = ClientReportHandler(authenticator: authenticator, journeys: journeys)
        let clientToken = ClientTokenHandler(authenticator: authenticator, journeys: journeys, dependencies: dependencies)
        let cancel = CancelJourneyHandler(authenticator: authenticator, journeys: journeys)
        let store = journeys.events
        let webhooks = WebhookHandler(
            journeys: journeys, credentials: dependencies.webhookCredentials,
            metrics: metrics, logger: dependencies.logger)
        let fetches = ResultFetchCounting(metrics: metrics, logger: dependencies.logger)

        let listing = JourneyListing(reports: self.reports)
        let feed = EventFeed(events: journeys.events)

        // Answers carrying a webAppToken, client token or link are never cached.
        router.post("/v1/journeys") { try await start.handle($0).noStore() }
        router.get("/v1/journeys") { request in
            let principal = try await authenticator.apiKey(request, scope: .journeysRead)
            return try HTTPResponse.json(
                try await listing.page(try JourneyListing.query(request), tenant: principal.tenant),
                encoder: TokenResponse.encoder)
        }
        router.get("/v1/events") { request in
            let principal = try await authenticator.apiKey(request, scope: .journeysRead)
            return try await feed.response(try EventFeed.query(request), tenant: principal.tenant)
        }
        router.get("/v1/journeys/{id}") { request in
            let principal = try await authenticator.apiKey(request, scope: .journeysRead)
            let id = JourneyID(try RequestAuthenticator.journeyID(request).uuidString.lowercased())
            return try HTTPResponse.json(
                JourneyView(try await journeys.load(id, asOf: request, tenant: principal.tenant), id: id),
                encoder: TokenResponse.encoder)
        }
        router.get("/v1/journeys/{id}/events") { request in
            let principal = try await authenticator.apiKey(request, scope: .journeysRead)
            let id = JourneyID(try RequestAuthenticator.journeyID(request).uuidString.lowercased())
            _ = try await journeys.state(of: id, tenant: principal.tenant)
            let events = try await store.readStream(StreamName.journey(id.rawValue))
            guard !events.isEmpty else { throw Problem.journeyNotFound() }
            return try AuditTrail.response(journeyID: id.rawValue, events: events)
        }
        router.post("/v1/journeys/{id}/capture-opened") { try await reports.captureOpened($0) }
        router.post("/v1/journeys/{id}/callback") { request in
            let recorded = try await reports.callback(request)
            let (state, fetch) = try await journeys.fetchAfterCallback(recorded.id, state: recorded.state)
            guard case .skipped = fetch else {
                fetches.count(fetch, journey: recorded.id, trigger: "callback")
                return try HTTPResponse.json(JourneyView(state, id: recorded.id), encoder: TokenResponse.encoder)
            }
            return try recorded.response()
        }
        router.get("/v1/journeys/{id}/human-token") { request in
            let principal = try await authenticator.apiKey(request, scope: .humanTokenRead)
            let id = JourneyID(try RequestAuthenticator.journeyID(request).uuidString.lowercased())
            let disclosure = try DisclosurePurpose.disclosure(
                request, principal: principal,
                channel: "GET /v1/journeys/{id}/human-token")
            let (state, value) = try await journeys.openHumanToken(id, disclosure: disclosure)
            guard let value else {
                throw Problem(
                    status: .notFound, code: "human_token_not_available",
                    detail: "The journey has no Human Token: it is not completed with an approval.",
                    extra: ["status": state.status.rawValue])
            }
            return try HTTPResponse.json(
                HumanTokenView(
                    journeyId: id.rawValue, humanToken: value,
                    completedAt: state.completedAt),
                encoder: TokenResponse.encoder
            ).noStore()
        }
        router.post("/v1/webhooks/unico") { try await webhooks.handle($0) }
        router.post("/v1/journeys/{id}/token") { try await token.handle($0).noStore() }
        router.post("/v1/journeys/{id}/client-token") { try await clientToken.handle($0).noStore() }
        router.post("/v1/journeys/{id}/cancel") { try await cancel.handle($0) }
        router.get("/v1/journeys/{id}/link") { try await reports.link($0).noStore() }
    }
}

/// `GET /v1/journeys/{id}/human-token`: the opened Human Token, for the company to keep with its user.
struct HumanTokenView: Encodable, Sendable {
    var journeyId: String
    var humanToken: String
    var completedAt: Date?
}
