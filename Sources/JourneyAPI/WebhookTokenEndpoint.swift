import Foundation
import HTTPServer
import Observability

/// `POST /v1/unico/oauth/token`: the OAuth2 client-credentials token endpoint Unico calls before
/// its webhooks when `UNICO_WEBHOOK_AUTH` (or a tenant's own `webhookAuth`) is
/// `oauth2:<client-id>:<client-secret>`; the token is issued under the credentials the client
/// presented, so a webhook presenting it is that tenant's (or the deployment's).
///
/// Form body `grant_type=client_credentials`; the client authenticates with HTTP Basic
/// (`client_id:client_secret`) or the `client_id` and `client_secret` fields. Answers
/// `{"access_token","token_type":"Bearer","expires_in"}` with `Cache-Control: no-store`.
/// Refusals are problems whose `code` (and `error`, for OAuth2 clients) is `invalid_request`
/// (400), `unsupported_grant_type` (400) or `invalid_client` (401); in another mode, 404
/// `webhook_oauth_disabled`.
struct WebhookTokenEndpoint: Sendable {
    struct Answer: Encodable, Sendable {
        var access_token: String
        var token_type: String
        var expires_in: Int
    }

    let credentials: WebhookCredentials
    let clock: @Sendable () -> Date
    let metrics: MetricsRegistry
    let logger: Logger

    func register(on router: inout Router) {
        router.post("/v1/unico/oauth/token") { try await handle($0) }
    }

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard !credentials.tokenIssuers.isEmpty else {
            throw Problem(
                status: .notFound, code: "webhook_oauth_disabled",
                detail: "UNICO_WEBHOOK_AUTH is not in the oauth2 mode.")
        }
        guard request.mediaType == "application/x-www-form-urlencoded", let form = FormFields.parse(request.body) else {
            throw refusal(.badRequest, "invalid_request", "The body must be an application/x-www-form-urlencoded form.")
        }
        guard let grant = form["grant_type"] else {
            throw refusal(.badRequest, "invalid_request", "grant_type is required.", field: "grant_type")
        }
        guard grant == "client_credentials" else {
            throw refusal(
                .badRequest, "unsupported_grant_type", "Only the client_credentials grant is offered.",
                field: "grant_type")
        }
        let presented =
            Self.basicCredentials(request.headers["Authorization"])
            ?? form["client_id"].map { ($0, form["client_secret"] ?? "") }
        let matched = presented.flatMap { credentials.issuer(id: $0.0, secret: $0.1) }
        let accepted = matched != nil
        // Attempt limit per client address: a failure takes one attempt, a success needs one left,
        // so a guesser over the limit learns nothing from the answer (429, without journey data).
        try await RequestRateLimiter.current?.admitWebhookToken(
            peer: request.remoteAddress, failed: !accepted,
            route: request.route)
        guard let issuer = matched else {
            count("invalid_client")
            logger.warning(
                "webhook token refused: client credentials missing or wrong",
                metadata: ["peer": request.remoteAddress ?? "?"])
            // No WWW-Authenticate challenge: HTTP stacks would answer it by resending the same credentials.
            throw refusal(.unauthorized, "invalid_client", "The client credentials are missing or wrong.")
        }
        count("issued")
        var response = try HTTPResponse.json(
            Answer(
                access_token: issuer.issue(now: clock()), token_type: "Bearer", expires_in: Int(issuer.lifetime)))
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    private func refusal(_ status: HTTPStatus, _ code: String, _ detail: String, field: String? = nil) -> Problem {
        var extra = ["error": code]
        if let field { extra["field"] = field }
        if status != .unauthorized { count(code) }
        return Problem(status: status, code: code, detail: detail, extra: extra)
    }

    private func count(_ outcome: String) {
        metrics.increment(
            "webhook_tokens_total", help: "Unico webhook token requests by outcome.",
            labels: ["outcome": outcome])
    }

    /// `Authorization: Basic base64(id:secret)`, each part form-decoded as RFC 6749 §2.3.1 says.
    static func basicCredentials(_ header: String?) -> (String, String)? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic ",
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            let id = FormFields.decode(text[..<colon]), let secret = FormFields.decode(text[text.index(after: colon)...])
        else { return nil }
        return (id, secret)
    }
}
