import HTTPServer

/// A token endpoint refusal: Unico's `{"error":"server_error","error_description":"... <code>"}`.
///
/// Codes are Unico's: `1.0.1` unknown tenant or account, `1.1.1` no scope, `1.2.4` expired,
/// `1.2.5` not valid (signature, audience, lifetime), `1.2.7` replayed, `1.2.14` scope not
/// allowed, `1.2.20` malformed request, `1.2.21` undecodable assertion, `1.2.22` extra claims.
struct TokenEndpointError: Error, Sendable, Equatable {
    static let unknownTenant = TokenEndpointError(code: "1.0.1")
    static let missingScope = TokenEndpointError(code: "1.1.1")
    static let expired = TokenEndpointError(code: "1.2.4")
    static let notValid = TokenEndpointError(code: "1.2.5")
    static let replayed = TokenEndpointError(code: "1.2.7")
    static let scopeNotAllowed = TokenEndpointError(code: "1.2.14")
    static let malformedRequest = TokenEndpointError(code: "1.2.20", status: .badRequest)
    static let undecodable = TokenEndpointError(code: "1.2.21")
    static let extraClaims = TokenEndpointError(code: "1.2.22")

    var code: String
    var status: HTTPStatus = .unauthorized

    var response: HTTPResponse {
        JSONBody.response(
            ["error": "server_error", "error_description": "Falha na autenticação \(code)"], status: status)
    }
}
