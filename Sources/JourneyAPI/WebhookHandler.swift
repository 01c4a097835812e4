import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine
import Observability

/// `POST /v1/webhooks/unico`: Unico's notice that a process finished. A webhook is only a hint:
/// it is recorded (`WebhookReceived`) and then Get Process decides the outcome (`Journeys.fetchResult`).
///
/// - Wrong or missing credentials: 401 `webhook_unauthorized`, counted in
///   `webhook_requests_total{outcome="unauthorized"}` and logged without the credentials.
/// - Malformed body: 400 `invalid_json`.
/// - A process no journey created: 202 `unknown_process`, recorded as `UnmatchedWebhookReceived`
///   in the stream `unico-webhooks` (no journey stream to put it in; auditors still see it).
/// - Credentials that may not touch the process's journey (another tenant's, see
///   ``WebhookCredentials``): answered exactly as a process no journey created (202
///   `unknown_process`), nothing recorded, counted as `outcome="foreign_tenant"` and logged.
/// - Duplicates and late deliveries: each is a `WebhookReceived`; the result is fetched and
///   recorded at most once (the fetcher records only while the attempt awaits its result).
struct WebhookHandler: Sendable {
    /// Unico's payload `{"processId","state","flow","result"}` (plus `lastEvent` with `expired`).
    struct Payload: Decodable, Sendable {
        var processId: String
        var state: String
        var flow: String?
        var result: String?
        var lastEvent: String?
    }

    /// The answer to an accepted webhook.
    struct Answer: Encodable, Sendable {
        var code: String
        var journeyId: String?
        var status: String?
    }

    let journeys: Journeys
    let credentials: WebhookCredentials
    let metrics: MetricsRegistry
    let logger: Logger

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let caller = credentials.caller(request.headers, now: journeys.dependencies.clock()) else {
            count("unauthorized")
            logger.warning(
                "webhook refused: credentials missing or wrong",
                metadata: ["mode": credentials.modeName, "peer": request.remoteAddress ?? "?"])
            throw Problem(
                status: .unauthorized, code: "webhook_unauthorized",
                detail: "The webhook credentials are missing or wrong.")
        }
        let payload: Payload
        do {
            try request.requireMediaType()
            payload = try request.decode()
        } catch {
            count("invalid")
            throw error
        }
        guard !payload.processId.isEmpty, payload.processId.count <= 200, !payload.state.isEmpty else {
            count("invalid")
            throw Problem(
                status: .badRequest, code: "invalid_json", detail: "processId and state are required.",
                extra: ["field": payload.processId.isEmpty || payload.processId.count > 200 ? "processId" : "state"])
        }
        let processID = ProcessID(payload.processId)
        let notice = WebhookNotice(
            processID: processID, state: payload.state, result: payload.result,
            lastEvent: payload.lastEvent)
        // Only tenants' own credentials confine a caller: without them, nothing to check.
        let credentials = credentials
        let may: (@Sendable (String, Environment?) -> Bool)? =
            credentials.tenants.isEmpty
            ? nil : { @Sendable tenant, environment in credentials.may(caller, touch: tenant, environment: environment) }
        switch try await journeys.receiveWebhook(notice, flow: payload.flow, may: may) {
        case .unknownProcess:
            count("unknown_process")
            return try HTTPResponse.json(Answer(code: "unknown_process"), status: .accepted)
        case .foreignTenant:
            count("foreign_tenant")
            logger.warning(
                "webhook ignored: its credentials may not touch the process's journey",
                metadata: ["caller": caller.label, "peer": request.remoteAddress ?? "?"])
            return try HTTPResponse.json(Answer(code: "unknown_process"), status: .accepted)
        case .recorded(let id, let status, let fetch):
            count("recorded")
            ResultFetchCounting(metrics: metrics, logger: logger).count(fetch, journey: id, trigger: "webhook")
            return try HTTPResponse.json(Answer(code: "recorded", journeyId: id.rawValue, status: status.rawValue))
        }
    }

    private func count(_ outcome: String) {
        metrics.increment("webhook_requests_total", help: "Unico webhook calls by outcome.", labels: ["outcome": outcome])
    }
}
