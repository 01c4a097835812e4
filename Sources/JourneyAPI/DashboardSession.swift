import AccessControl
import Cryptography
import Foundation
import HTTPServer

/// Who is signed in to the dashboard, and the checks its forms need.
///
/// A visitor is authenticated by an API key header (scripts, proxies) or by the session cookie
/// (see ``DashboardRoutes``). Forms that change something carry a token derived from the session
/// (``formToken(session:)``): a page of another site cannot read the cookie, so it cannot forge it.
/// Posts that a browser marks cross-site (`Sec-Fetch-Site: cross-site`, or an `Origin` naming another
/// host than `Host`) are refused before anything else.
struct DashboardSession: Sendable {
    /// A signed-in visitor: the key's principal, and the session token when signed in by cookie.
    struct Visitor: Sendable {
        var principal: Principal
        var session: String?
    }

    let keys: APIKeyStore
    let sessions: ClientTokenIssuer
    let clock: @Sendable () -> Date

    /// The visitor, or nil when the request carries no credentials at all; a bad, expired or
    /// revoked credential throws its `AccessError`.
    func visitor(_ request: HTTPRequest) async throws -> Visitor? {
        let cookie = DashboardRoutes.cookie(DashboardRoutes.cookieName, in: request.headers["Cookie"])
        let hasHeader = request.headers["Authorization"] != nil || request.headers["X-API-Key"] != nil
        if hasHeader {
            return Visitor(
                principal: try await keys.authenticate(
                    authorizationHeader: request.headers["Authorization"],
                    apiKeyHeader: request.headers["X-API-Key"]), session: nil)
        }
        guard let cookie else { return nil }
        return Visitor(principal: try await keys.principal(id: try sessions.verifySession(cookie, now: clock())), session: cookie)
    }

    /// The hidden form field a session's forms carry: base64url SHA-256 of a label and the session token.
    static func formToken(session: String) -> String {
        Base64URL.encode(SHA256.hash("journeys-dashboard-form:" + session))
    }

    /// True when a post with form `fields` may act for `visitor`: a header-authenticated visitor
    /// (no cookie rides along on its own) or a cookie session whose form token matches.
    static func formTokenHolds(_ fields: [String: String], for visitor: Visitor) -> Bool {
        guard let session = visitor.session else { return true }
        guard let given = fields[formTokenField] else { return false }
        let expected = Array(formToken(session: session).utf8), actual = Array(given.utf8)
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The hidden field's name.
    static let formTokenField = "formToken"

    /// True when a browser says the request comes from another site: `Sec-Fetch-Site: cross-site`,
    /// or (browsers without it) an `Origin` of `null` or naming a host other than `Host`'s. Requests
    /// without either header (curl, scripts) are not browsers' cross-site requests.
    static func isCrossSite(_ request: HTTPRequest) -> Bool {
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased() {
            return site == "cross-site"
        }
        guard let origin = request.headers["Origin"] else { return false }
        guard let originHost = URLComponents(string: origin)?.host?.lowercased(),
            let host = request.headers["Host"].flatMap({ URLComponents(string: "http://" + $0)?.host?.lowercased() })
        else { return true }
        return originHost != host
    }

    /// The page refusing a cross-site post (403).
    static func crossSiteRefusal() -> HTTPResponse {
        DashboardHTML.page(
            title: DashboardPage.title,
            body: """
                <h1>\(DashboardHTML.escape(DashboardPage.title))</h1>
                <p class="error" role="alert">This form was posted from another site; the dashboard accepts its forms only from its own pages.</p>
                """, status: .forbidden)
    }
}
