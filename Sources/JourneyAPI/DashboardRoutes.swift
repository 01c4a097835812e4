import AccessControl
import Foundation
import HTTPServer
import Postgres
import Reports

/// `GET /dashboard`: server-rendered HTML with inline SVG (scope `reports:read`).
///
/// Authentication: the API key in `Authorization: Bearer` / `X-API-Key` (scripts, proxies), or the
/// `journeys_dashboard` cookie that `POST /dashboard/session` sets after checking a key typed into
/// the sign-in form. The cookie holds a session token (EdDSA, signed with the session key
/// `JOURNEYS_SESSION_KEY` and naming it by `kid`, naming the API key by id, expiring after 15 minutes), never the key itself; it is
/// `HttpOnly; SameSite=Strict; Path=/dashboard`, plus `Secure` unless the server listens on loopback
/// only (``JourneyDependencies/secureSessionCookie``) or when a proxy says `X-Forwarded-Proto: https`;
/// its key is looked up on every request (a revoked key stops working at once). A key is never
/// accepted in the URL. A sign-in posted from another site (`Sec-Fetch-Site: cross-site`, or an
/// `Origin` naming another host than `Host`) is refused (403) before the key is checked.
/// Pages allow no scripts (`Content-Security-Policy`); every echoed value is HTML-escaped.
struct DashboardRoutes: Sendable {
    /// Where the charts' reports run (a standby when one is configured).
    let reports: ReportsDatabase
    let keys: APIKeyStore
    let sessions: ClientTokenIssuer
    let clock: @Sendable () -> Date
    /// Whether the session cookie is always `Secure` (the server listens beyond loopback).
    var secureCookie = false

    static let cookieName = "journeys_dashboard"
    /// Seconds the session cookie lives. 15 minutes.
    static let sessionLifetime = 900

    func register(on router: inout Router) {
        router.get("/dashboard") { request in try await dashboard(request) }
        router.post("/dashboard/session") { request in try await signIn(request) }
    }

    func dashboard(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = Self.percentEncodedQuery(request.queryItems)
        let tenant: String
        do {
            guard let visitor = try await DashboardSession(keys: keys, sessions: sessions, clock: clock).visitor(request) else {
                return Self.signInPage(status: .unauthorized, message: nil, query: query)
            }
            let principal = visitor.principal
            try principal.require(.reportsRead)
            tenant = principal.tenant
        } catch let error as AccessError {
            return Self.signInPage(status: HTTPStatus(code: error.httpStatus), message: error.message, query: query)
        }
        let today = Self.day(clock())
        let filters = DashboardPage.Filters(
            from: request.query("from") ?? Self.day(clock().addingTimeInterval(-29 * 86_400)),
            to: request.query("to") ?? today, environment: request.query("environment") ?? "")
        var parameters: ReportParameters
        do {
            parameters = try ReportParameters.parse(
                [
                    ReportParameters.Key.from: filters.from, ReportParameters.Key.to: filters.to,
                    ReportParameters.Key.environment: filters.environment,
                ], for: .funnel, now: clock())
        } catch {
            return DashboardHTML.page(
                title: DashboardPage.title, body: DashboardPage.form(filters, error: error.message),
                status: .badRequest)
        }
        parameters.tenant = tenant
        let page = try await reports.read { database in
            let read = try await DashboardReports.run(parameters, on: database)
            return DashboardPage(
                filters: filters, parameters: parameters, funnel: read.funnel, errors: read.errors,
                expiry: read.expiry, timing: read.timing)
        }
        return DashboardHTML.page(title: DashboardPage.title, body: page.html)
    }

    /// Checks the key of the sign-in form; sets the session cookie and redirects to the dashboard
    /// with the filters the user had asked for (form field `query`, kept only when URL-safe).
    func signIn(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard !DashboardSession.isCrossSite(request) else { return DashboardSession.crossSiteRefusal() }
        let form = Self.formFields(request.body)
        let query = form["query"].flatMap { $0.allSatisfy(Self.urlSafe.contains) && !$0.isEmpty ? $0 : nil }
        guard let key = form["apiKey"], !key.isEmpty else {
            return Self.signInPage(status: .badRequest, message: "Enter an API key with the reports:read scope.", query: query)
        }
        let session: String
        do {
            let principal = try await keys.authenticate(authorizationHeader: nil, apiKeyHeader: key)
            try principal.require(.reportsRead)
            session = try sessions.issueSession(
                keyID: principal.keyID, now: clock(), lifetime: TimeInterval(Self.sessionLifetime))
        } catch let error as AccessError {
            return Self.signInPage(status: HTTPStatus(code: error.httpStatus), message: error.message, query: query)
        }
        let secure = secureCookie || request.headers["X-Forwarded-Proto"]?.lowercased() == "https" ? "; Secure" : ""
        return HTTPResponse(
            status: 303,
            headers: [
                "Location": "/dashboard" + (query.map { "?" + $0 } ?? ""),
                "Set-Cookie":
                    "\(Self.cookieName)=\(session); Path=/dashboard; Max-Age=\(Self.sessionLifetime); HttpOnly; SameSite=Strict\(secure)",
                "Cache-Control": "no-store",
            ])
    }

    /// Characters a redirect's query may hold (RFC 3986 unreserved, sub-delimiters, `%`, `:@/?`).
    static let urlSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?%")

    /// The request's query, percent-encoded again; nil when empty.
    static func percentEncodedQuery(_ items: [URLQueryItem]) -> String? {
        guard !items.isEmpty else { return nil }
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery
    }

    /// The sign-in form; `query` (the filters asked for) rides along in a hidden field.
    static func signInPage(status: HTTPStatus, message: String?, query: String?) -> HTTPResponse {
        let body = """
            <h1>\(DashboardHTML.escape(DashboardPage.title))</h1>
            \(message.map { "<p class=\"error\" role=\"alert\">\(DashboardHTML.escape($0))</p>" } ?? "")
            <section><h2>Sign in</h2><p>Enter an API key with the <code>reports:read</code> scope. It is checked once;
            a signed session in an HttpOnly cookie keeps you signed in for 15 minutes.</p>
            <form method="post" action="/dashboard/session"><label>API key
            <input type="password" name="apiKey" autocomplete="off" required></label>
            \(query.map { "<input type=\"hidden\" name=\"query\" value=\"\(DashboardHTML.escape($0))\">" } ?? "")
            <button type="submit">Sign in</button></form></section>
            """
        return DashboardHTML.page(title: DashboardPage.title, body: body, status: status)
    }

    /// `YYYY-MM-DD` in UTC.
    static func day(_ date: Date) -> String {
        String(ReportDate.format(date).prefix(10))
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return String(parts[1]).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Fields of an `application/x-www-form-urlencoded` body.
    static func formFields(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }
}
