import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import JourneyStore
import Observability
import Postgres

/// `POST /v1/webhooks/unico`: Unico's notice that a process finished. A webhook is only a hint:
/// it is recorded (`WebhookReceived`) and then Get Process decides the outcome (``ResultFetcher``).
///
/// - Wrong or missing credentials: 401 `webhook_unauthorized`, counted in
///   `webhook_requests_total{outcome="unauthorized"}` and logged without the credentials.
/// - Malformed body: 400 `invalid_json`.
/// - A process no journey created: 202 `unknown_process`, recorded as `UnmatchedWebhookReceived`
///   in the stream `unico-webhooks` (no journey stream to put it in; auditors still see it).
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

    let database: PostgresClient
    let writer: JourneyWriter
    let fetcher: ResultFetcher
    let authentication: WebhookAuthenticator?
    let metrics: MetricsRegistry

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let authentication, authentication.accepts(request.headers) else {
            count("unauthorized")
            let mode = authentication?.modeName ?? "unconfigured"
            Self.log("webhook refused: credentials missing or wrong (mode \(mode), peer \(request.remoteAddress ?? "?"))")
            throw Problem(status: .unauthorized, code: "webhook_unauthorized",
                          detail: "The webhook credentials are missing or wrong.")
        }
        let payload: Payload
        do {
            payload = try request.decode()
        } catch {
            count("invalid")
            throw error
        }
        guard !payload.processId.isEmpty, payload.processId.count <= 200, !payload.state.isEmpty else {
            count("invalid")
            throw Problem(status: .badRequest, code: "invalid_json", detail: "processId and state are required.",
                          extra: ["field": payload.processId.isEmpty || payload.processId.count > 200 ? "processId" : "state"])
        }
        let processID = ProcessID(payload.processId)
        guard let id = try await journey(of: processID) else {
            count("unknown_process")
            try await recordUnmatched(payload)
            return try HTTPResponse.json(Answer(code: "unknown_process"), status: .accepted)
        }
        let notice = WebhookNotice(processID: processID, state: payload.state, result: payload.result,
                                   lastEvent: payload.lastEvent)
        let metadata = EventMetadata(correlationID: UUID(), actor: "unico-webhook")
        _ = try await writer.transaction { connection, now in
            try JourneyWriter.execute(.recordWebhook(notice), journey: id, metadata: metadata, now: now, on: connection)
        }
        count("recorded")
        await fetcher.fetchCounting(journeyID: id, trigger: "webhook", metrics: metrics)
        let state = try await writer.load(id)
        return try HTTPResponse.json(Answer(code: "recorded", journeyId: id.rawValue, status: state.status.rawValue))
    }

    /// The journey whose attempt created `processID` (table `process_journeys`, schema/0005).
    private func journey(of processID: ProcessID) async throws -> JourneyID? {
        let rows = try await database.query("""
            SELECT journey_id FROM process_journeys WHERE process_id = \(processID.rawValue)
            """)
        return try rows.first.map { JourneyID(try $0.decode(0, as: String.self)) }
    }

    /// Stream of webhooks that matched no journey.
    static let unmatchedStream = StreamName("unico-webhooks")

    private func recordUnmatched(_ payload: Payload) async throws {
        let data: [String: String?] = ["processId": payload.processId, "state": payload.state, "flow": payload.flow,
                                       "result": payload.result, "lastEvent": payload.lastEvent]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = JSONB(text: String(decoding: try encoder.encode(data.compactMapValues { $0 }), as: UTF8.self))
        _ = try await EventStore(client: database).append(
            [NewEvent(type: "UnmatchedWebhookReceived", data: json,
                      metadata: EventMetadata(correlationID: UUID(), actor: "unico-webhook"))],
            to: Self.unmatchedStream, expectedVersion: .any)
    }

    private func count(_ outcome: String) {
        metrics.increment("webhook_requests_total", help: "Unico webhook calls by outcome.", labels: ["outcome": outcome])
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("journeys: \(message)\n".utf8))
    }
}
