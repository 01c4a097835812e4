import AccessControl
import Audit
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine
import Postgres

/// The dashboard's journey pages (server-rendered, no scripts, every value escaped):
///
/// - `GET /dashboard/journeys`: the tenant's journeys, newest first, filtered by `clientReference`,
///   `status`, `environment` and `createdFrom`/`createdTo` (RFC 3339), `cursor`-paginated: the same
///   parsing and query as `GET /v1/journeys` (``JourneyListing``); a bad filter answers 400 with the
///   form and the message naming it. Scope `journeys:read`.
/// - `GET /dashboard/journeys/{id}`: one journey's timeline, attempts, processes and disclosures,
///   what `journeys audit show` prints (``Audit/JourneyTimeline``); the subject appears only as its
///   pseudonymous reference. Another tenant's journey answers 404. Scope `journeys:read`.
/// - `POST /dashboard/journeys/{id}/cancel` (form field `reason`): the engine's cancel, as
///   `POST /v1/journeys/{id}/cancel`. Scope `journeys:write`; the form is shown only to keys holding it.
///   Cross-site posts are refused and a cookie session's form must carry its form token (``DashboardSession``).
struct DashboardJourneyRoutes: Sendable {
    let database: PostgresClient
    let reports: ReportsDatabase
    let journeys: Journeys
    let session: DashboardSession

    func register(on router: inout Router) {
        router.get("/dashboard/journeys") { request in try await list(request) }
        router.get("/dashboard/journeys/{id}") { request in try await show(request) }
        router.post("/dashboard/journeys/{id}/cancel") { request in try await cancel(request) }
    }

    /// The visitor holding `scope`, or the page to answer instead (sign-in, or the refusal).
    private func visitor(_ request: HTTPRequest, scope: Scope) async throws -> Result<DashboardSession.Visitor, Refusal> {
        do {
            guard let visitor = try await session.visitor(request) else {
                return .failure(Refusal(DashboardRoutes.signInPage(status: .unauthorized, message: nil, query: nil)))
            }
            try visitor.principal.require(scope)
            return .success(visitor)
        } catch let error as AccessError {
            return .failure(
                Refusal(
                    DashboardRoutes.signInPage(
                        status: HTTPStatus(code: error.httpStatus), message: error.message,
                        query: nil)))
        }
    }

    struct Refusal: Error { let response: HTTPResponse; init(_ response: HTTPResponse) { self.response = response } }

    func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visitor: DashboardSession.Visitor
        switch try await self.visitor(request, scope: .journeysRead) {
        case .success(let found): visitor = found
        case .failure(let refusal): return refusal.response
        }
        // Blank form fields mean "any": the listing's parser sees only the filters given.
        var filtered = request
        filtered.queryItems = request.queryItems.filter { !($0.value ?? "").isEmpty }
        let filters = DashboardJourneysPage.Filters(filtered)
        let query: JourneyListing.Query
        do {
            query = try JourneyListing.query(filtered)
        } catch let problem as Problem {
            return DashboardHTML.page(
                title: DashboardJourneysPage.title,
                body: DashboardJourneysPage.form(filters, error: problem.detail ?? problem.title),
                status: problem.status)
        }
        let page = try await JourneyListing(reports: reports).page(query, tenant: visitor.principal.tenant)
        return DashboardHTML.page(
            title: DashboardJourneysPage.title,
            body: DashboardJourneysPage(filters: filters, page: page).html)
    }

    func show(_ request: HTTPRequest, error: String? = nil, status: HTTPStatus = .ok) async throws -> HTTPResponse {
        let visitor: DashboardSession.Visitor
        switch try await self.visitor(request, scope: .journeysRead) {
        case .success(let found): visitor = found
        case .failure(let refusal): return refusal.response
        }
        guard let id = Self.journeyID(request) else { return Self.notFound() }
        let timeline: JourneyTimeline
        do {
            timeline = try await JourneyTimeline.load(id, asOf: nil, events: journeys.events)
        } catch let error as AuditError where error.code == .journeyNotFound {
            return Self.notFound()
        }
        // Another tenant's journey is a journey that does not exist.
        guard timeline.state.tenantName == visitor.principal.tenant else { return Self.notFound() }
        let page = DashboardJourneyPage(
            timeline: timeline, canCancel: visitor.principal.allows(.journeysWrite),
            formToken: visitor.session.map(DashboardSession.formToken(session:)), error: error)
        return DashboardHTML.page(title: DashboardJourneyPage.title, body: page.html, status: status)
    }

    func cancel(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard !DashboardSession.isCrossSite(request) else { return DashboardSession.crossSiteRefusal() }
        let visitor: DashboardSession.Visitor
        switch try await self.visitor(request, scope: .journeysWrite) {
        case .success(let found): visitor = found
        case .failure(let refusal): return refusal.response
        }
        let fields = DashboardRoutes.formFields(request.body)
        guard DashboardSession.formTokenHolds(fields, for: visitor) else {
            return DashboardHTML.page(
                title: DashboardJourneyPage.title,
                body: """
                    <h1>\(DashboardHTML.escape(DashboardJourneyPage.title))</h1>
                    <p class="error" role="alert">This form has expired or did not come from the dashboard; open the journey again.</p>
                    """, status: .forbidden)
        }
        guard let id = Self.journeyID(request) else { return Self.notFound() }
        var page = request
        page.method = .get
        page.body = Data()
        let reason: String
        switch JourneyCancellation.checkedReason(fields["reason"]) {
        case .success(let checked): reason = checked
        case .failure(let issue): return try await show(page, error: issue.message, status: .unprocessableContent)
        }
        do {
            try await journeys.cancel(
                id, JourneyCancellation(reason: reason, actor: visitor.principal.actor),
                tenant: visitor.principal.tenant)
        } catch {
            guard let problem = Problem.mapped(error) else { throw error }
            if problem.status == .notFound { return Self.notFound() }
            return try await show(page, error: problem.detail ?? problem.title, status: problem.status)
        }
        return HTTPResponse(
            status: 303, headers: ["Location": "/dashboard/journeys/\(id.rawValue)", "Cache-Control": "no-store"])
    }

    /// The route's journey id (a UUID, lower-cased); nil when it is not one.
    static func journeyID(_ request: HTTPRequest) -> JourneyID? {
        guard let text = request.pathParameters["id"], let uuid = UUID(uuidString: text) else { return nil }
        return JourneyID(uuid.uuidString.lowercased())
    }

    static func notFound() -> HTTPResponse {
        DashboardHTML.page(
            title: DashboardJourneyPage.title,
            body: """
                <nav><a href="/dashboard/journeys">Journeys</a></nav>
                <h1>Journey not found</h1><p class="error" role="alert">No journey of yours has this id.</p>
                """, status: .notFound)
    }
}
