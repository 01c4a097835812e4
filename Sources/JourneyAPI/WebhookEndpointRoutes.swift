import AccessControl
import Cryptography
import Foundation
import HTTPServer
import OutboundWebhooks
import Postgres

/// The outbound webhook administration routes (scope `webhooks:admin`): list, create, disable and
/// enable the tenant's endpoints, page through an endpoint's deliveries, resend one.
///
/// An endpoint belongs to an API key of the caller's tenant (the caller's own unless `apiKeyId`
/// names another key of the tenant) and receives the webhooks of the journeys that key starts.
/// Another tenant's endpoint or delivery answers 404 as one that does not exist. The secret is
/// in the creation answer only.
struct WebhookEndpointRoutes: Sendable {
    let database: PostgresClient
    let authenticator: RequestAuthenticator
    let dependencies: JourneyDependencies

    func register(on router: inout Router) {
        let authenticator = self.authenticator
        let sealer = try? WebhookSecretSealer(privacy: dependencies.vault.configuration)
        let admin = sealer.map {
            WebhookAdmin(client: database, sealer: $0, destinations: dependencies.webhookDestinations, now: dependencies.clock)
        }
        @Sendable func open() throws -> WebhookAdmin {
            guard let admin else {
                throw Problem(
                    status: .serviceUnavailable, code: "webhooks_unavailable",
                    detail: "Webhook secrets cannot be sealed: the privacy keys are not configured.", retryable: false)
            }
            return admin
        }

        router.get("/v1/webhook-endpoints") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let endpoints = try await Self.mapping { try await open().endpoints(tenant: principal.tenant) }
            return try HTTPResponse.json(["items": endpoints.map(WebhookEndpointView.init)], encoder: TokenResponse.encoder)
        }
        router.post("/v1/webhook-endpoints") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let body = try WebhookEndpointRequest.parse(request.body, defaultKey: principal.keyID)
            let (endpoint, secret) = try await Self.mapping {
                try await open().create(
                    tenant: principal.tenant, apiKeyID: body.apiKeyID, url: body.url,
                    eventTypes: body.eventTypes)
            }
            var view = WebhookEndpointView(endpoint)
            view.secret = secret.text
            return try HTTPResponse.json(view, status: .created, encoder: TokenResponse.encoder).noStore()
        }
        router.get("/v1/webhook-endpoints/{id}") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let id = try Self.id(request, "id")
            let endpoint = try await Self.mapping { try await open().endpoint(id, tenant: principal.tenant) }
            return try HTTPResponse.json(WebhookEndpointView(endpoint), encoder: TokenResponse.encoder)
        }
        router.post("/v1/webhook-endpoints/{id}/disable") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let id = try Self.id(request, "id")
            let reason = try WebhookEndpointRequest.reason(request.body) ?? "disabled by \(principal.actor)"
            let endpoint = try await Self.mapping { try await open().disable(id, tenant: principal.tenant, reason: reason) }
            return try HTTPResponse.json(WebhookEndpointView(endpoint), encoder: TokenResponse.encoder)
        }
        router.post("/v1/webhook-endpoints/{id}/enable") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let id = try Self.id(request, "id")
            let endpoint = try await Self.mapping { try await open().enable(id, tenant: principal.tenant) }
            return try HTTPResponse.json(WebhookEndpointView(endpoint), encoder: TokenResponse.encoder)
        }
        router.get("/v1/webhook-endpoints/{id}/deliveries") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let id = try Self.id(request, "id")
            let (limit, before) = try DeliveryCursor.query(request)
            let page = try await Self.mapping {
                try await open().deliveries(endpoint: id, tenant: principal.tenant, before: before, limit: limit)
            }
            let next = page.next.map { DeliveryCursor(createdAt: $0.createdAt, id: $0.id).encoded }
            return try HTTPResponse.json(
                DeliveryPageView(items: page.deliveries.map(WebhookDeliveryView.init), nextCursor: next),
                encoder: TokenResponse.encoder)
        }
        router.post("/v1/webhook-deliveries/{id}/resend") { request in
            let principal = try await authenticator.apiKey(request, scope: .webhooksAdmin)
            let id = try Self.id(request, "id")
            let resent = try await Self.mapping { try await open().resend(delivery: id, tenant: principal.tenant) }
            return try HTTPResponse.json(WebhookDeliveryView(resent), status: .created, encoder: TokenResponse.encoder)
        }
    }

    /// A UUID path parameter; 400 `validation_failed` naming it otherwise.
    static func id(_ request: HTTPRequest, _ name: String) throws -> UUID {
        guard let id = UUID(uuidString: try request.pathParameter(name)) else {
            throw Problem(
                status: .badRequest, code: "validation_failed", detail: "\(name) must be a UUID.", extra: ["field": name])
        }
        return id
    }

    /// Runs `body`, turning its ``WebhookError`` into a problem.
    static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as WebhookError { throw Problem.webhook(error) }
    }
}

extension Problem {
    /// The problem answering a webhook administration error (messages carry no secret or URL).
    static func webhook(_ error: WebhookError) -> Problem {
        switch error.code {
        case .endpointNotFound, .deliveryNotFound:
            Problem(status: .notFound, code: error.code.rawValue, detail: error.message)
        case .deliveryPending, .keyRevoked, .secretMissing:
            Problem(status: .conflict, code: error.code.rawValue, detail: error.message)
        case .keyNotFound:
            Problem(status: .unprocessableContent, code: error.code.rawValue, detail: error.message, extra: ["field": "apiKeyId"])
        case .invalidArgument, .destinationRefused:
            Problem(
                status: .unprocessableContent, code: error.code == .invalidArgument ? "validation_failed" : error.code.rawValue,
                detail: error.message, extra: ["field": "url"])
        default:
            Problem(status: .internalServerError, code: "internal_error", detail: "The webhook store failed.")
        }
    }
}
