import AccessControl
import Foundation
import HTTPServer
import JourneyEngine
import Postgres
import Reports

/// `GET /v1/reports/{name}` (scope `reports:read`, JSON), and the dashboard's routes.
struct ReportRoutes: Sendable {
    let journeys: Journeys
    /// The process's API keys (the dashboard's sign-in checks them too).
    let keys: APIKeyStore
    let authenticator: RequestAuthenticator
    /// Where reports run (a standby when one is configured); keys are checked on the application pool.
    let reports: ReportsDatabase
    let dependencies: JourneyDependencies

    /// API query names and the report parameter each one sets.
    static let queryNames: [(query: String, key: String)] = [
        ("from", ReportParameters.Key.from), ("to", ReportParameters.Key.to),
        ("environment", ReportParameters.Key.environment), ("subject", ReportParameters.Key.subject),
        ("thresholdMinutes", ReportParameters.Key.thresholdMinutes), ("stuckMinutes", ReportParameters.Key.stuckMinutes),
    ]

    func register(on router: inout Router) {
        let (keys, authenticator) = (self.keys, self.authenticator)
        let clock = dependencies.clock
        router.get("/v1/reports/{name}") { [reports] request in
            let principal = try await authenticator.apiKey(request, scope: .reportsRead)
            let name: ReportName
            do {
                name = try ReportName.parse(try request.pathParameter("name"))
            } catch let error as ReportError {
                throw Problem(
                    status: .notFound, code: error.code.rawValue, detail: error.message,
                    extra: ["field": "name", "known": ReportName.known])
            }
            var parameters = try Self.parameters(request, for: name, now: clock())
            parameters.tenant = principal.tenant
            let document = try await reports.read { try await name.run(parameters, on: $0) }
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: try document.json())
        }
        DashboardRoutes(
            reports: reports, keys: keys, sessions: dependencies.sessionTokens, clock: clock,
            secureCookie: dependencies.secureSessionCookie
        ).register(on: &router)
        DashboardJourneyRoutes(
            database: journeys.database, reports: reports, journeys: journeys,
            session: DashboardSession(keys: keys, sessions: dependencies.sessionTokens, clock: clock)
        )
        .register(on: &router)
    }

    /// The report parameters of the query string; 400 naming the query parameter otherwise.
    static func parameters(_ request: HTTPRequest, for name: ReportName, now: Date) throws(Problem) -> ReportParameters {
        var values: [String: String] = [:]
        for (query, key) in queryNames { values[key] = request.query(query) }
        do {
            return try ReportParameters.parse(values, for: name, now: now)
        } catch {
            let field = queryNames.first { $0.key == error.parameter }?.query ?? error.parameter
            throw Problem(status: .badRequest, code: error.code.rawValue, detail: error.message, extra: ["field": field])
        }
    }
}
