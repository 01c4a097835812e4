import AccessControl
import Foundation
import HTTPServer
import Postgres

/// Authenticates requests by API key (with a scope) or by a journey's client token.
struct RequestAuthenticator: Sendable {
    let keys: APIKeyStore
    let clientTokens: ClientTokenIssuer
    let clock: @Sendable () -> Date

    /// The API key's principal, which must hold `scope`; 401/403 problems otherwise.
    func apiKey(_ request: HTTPRequest, scope: Scope) async throws -> Principal {
        do {
            let principal = try await keys.authenticate(
                authorizationHeader: request.headers["Authorization"],
                apiKeyHeader: request.headers["X-API-Key"])
            try principal.require(scope)
            try await RequestRateLimiter.current?.admit(apiKey: principal.keyID, tenant: principal.tenant, route: request.route)
            return principal
        } catch let error as AccessError {
            throw Problem.access(error)
        }
    }

    /// Verifies the bearer client token for `journey`; 401 when absent or invalid, 403 `wrong_journey`.
    func clientToken(_ request: HTTPRequest, journey: UUID) async throws -> ClientTokenClaims {
        guard let header = request.headers["Authorization"], let token = BearerCredentials.token(fromAuthorization: header)
        else {
            throw Problem.access(
                AccessError(.invalidToken, "a client token is required: send 'Authorization: Bearer <clientToken>'"))
        }
        let claims: ClientTokenClaims
        do {
            claims = try clientTokens.verify(token, journeyID: journey, now: clock())
        } catch let error as AccessError {
            throw Problem.access(error)
        }
        try await RequestRateLimiter.current?.admit(journey: journey, route: request.route)
        return claims
    }

    /// An actor for the audit trail: an API key holding `scope` when the bearer is one (with its
    /// tenant, which the journey must belong to), else the journey's client token (tenant nil: the
    /// token is bound to its journey).
    func clientTokenOrAPIKey(_ request: HTTPRequest, journey: UUID, scope: Scope) async throws
        -> (actor: String, tenant: String?)
    {
        let bearer = request.headers["Authorization"].flatMap { BearerCredentials.token(fromAuthorization: $0) }
        if request.headers["X-API-Key"] != nil || bearer.map({ APIKeyCredential(parsing: $0) != nil }) == true {
            let principal = try await apiKey(request, scope: scope)
            return (principal.actor, principal.tenant)
        }
        _ = try await clientToken(request, journey: journey)
        return ("client-token", nil)
    }

    /// The journey id of the path, or 404 `journey_not_found` when it is not a UUID.
    static func journeyID(_ request: HTTPRequest) throws -> UUID {
        guard let id = UUID(uuidString: try request.pathParameter("id")) else { throw Problem.journeyNotFound() }
        return id
    }
}
