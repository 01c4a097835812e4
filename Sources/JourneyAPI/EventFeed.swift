import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import OutboundWebhooks
import Postgres

/// `GET /v1/events?after=&types=&limit=`: the caller's tenant's journey steps for a company that
/// pulls instead of receiving webhooks. Each item is what the outbound webhook of that step
/// would carry (``OutboundWebhooks/JourneyWebhookMessage``: `id` is its `webhook-id`, `type`
/// and `data` its body), so no personal data and never the Human Token, plus the log `position`.
///
/// Items follow the log's global order, which never skips a late-committing event. `nextAfter`
/// is the position of the last event read (not only returned: other tenants' events and other
/// types are passed over), to send as `after` next time; `hasMore` says whether to ask again at
/// once. One request reads at most ``scanLimit`` events of the log.
struct EventFeed: Sendable {
    /// Validated query parameters.
    struct Query: Sendable, Equatable {
        /// Resume after the event at this log position; 0: from the start.
        var after: Int64 = 0
        /// Webhook types to return; nil: every type.
        var types: Set<JourneyWebhookEventType>?
        var limit: Int = EventFeed.defaultLimit
    }

    /// One page; its items are the JSON objects of the answer.
    struct Page {
        var items: [[String: Any]]
        var nextAfter: Int64
        var hasMore: Bool

        func response() throws -> HTTPResponse {
            let body = try JSONSerialization.data(
                withJSONObject: ["items": items, "nextAfter": nextAfter, "hasMore": hasMore],
                options: [.sortedKeys, .withoutEscapingSlashes])
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: body)
        }
    }

    static let defaultLimit = 100
    static let maximumLimit = 500
    /// Log events read per request at most (the caller's and everyone else's), 5,000.
    static let scanLimit = 5_000
    static let batchSize = 500

    /// The process's event store (the feed reads on its database).
    let events: EventStore
    var database: PostgresClient { events.client }

    /// Reads the query parameters; a bad one is a 400 `invalid_query` naming it.
    static func query(_ request: HTTPRequest) throws -> Query {
        var query = Query()
        if let after = request.query("after") {
            guard let value = Int64(after), value >= 0 else {
                throw invalid("after", "after must be 0 or the nextAfter (an event position) of an earlier page.")
            }
            query.after = value
        }
        if let types = request.query("types") {
            do {
                query.types = try JourneyWebhookEventType.parseList(types).map(Set.init)
            } catch {
                throw invalid(
                    "types",
                    "types must be a comma-separated list of "
                        + JourneyWebhookEventType.all.map(\.rawValue).joined(separator: ", ") + ", or all.")
            }
        }
        if let limit = request.query("limit") {
            guard let value = Int(limit), (1...maximumLimit).contains(value) else {
                throw invalid("limit", "limit must be an integer from 1 to \(maximumLimit).")
            }
            query.limit = value
        }
        return query
    }

    /// The answer: one page of `tenant`'s steps after `query.after`.
    func response(_ query: Query, tenant: String) async throws -> HTTPResponse {
        guard let start = try await events.checkpoint(atPosition: query.after) else {
            throw Self.invalid("after", "after must be 0 or the nextAfter (an event position) of an earlier page.")
        }
        return try await database.withConnection { connection in
            try Self.page(query, tenant: tenant, from: start, on: connection).response()
        }
    }

    private static func page(
        _ query: Query, tenant: String, from start: GlobalCheckpoint,
        on connection: PostgresConnection
    ) throws -> Page {
        let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var checkpoint = start
        var page = Page(items: [], nextAfter: query.after, hasMore: false)
        var scanned = 0
        var starts: [StreamName: JourneyStarted] = [:]
        while scanned < scanLimit {
            let events = try EventStore.readAll(after: checkpoint, limit: min(batchSize, scanLimit - scanned), on: connection)
            guard !events.isEmpty else { return page }
            // The steps the caller may want, then the starts (tenant, environment, reference) of their journeys.
            var steps: [Int: (event: JourneyEvent, type: JourneyWebhookEventType)] = [:]
            for (index, recorded) in events.enumerated() where recorded.streamName.journeyID != nil {
                let event = try JourneyEvent(type: recorded.type, text: recorded.data.text)
                if case .journeyStarted(let started) = event { starts[recorded.streamName] = started }
                guard let type = JourneyWebhookEventType.of(event), query.types?.contains(type) ?? true else { continue }
                steps[index] = (event, type)
            }
            let missing = Set(steps.keys.map { events[$0].streamName }).filter { starts[$0] == nil }
            for first in try EventStore.firstEvents(of: Array(missing), on: connection) {
                if case .journeyStarted(let started) = try JourneyEvent(type: first.type, text: first.data.text) {
                    starts[first.streamName] = started
                }
            }
            for (index, recorded) in events.enumerated() {
                scanned += 1
                checkpoint = recorded.checkpoint
                page.nextAfter = recorded.position
                guard let step = steps[index], let started = starts[recorded.streamName],
                    let journeyID = recorded.streamName.journeyID,
                    (started.tenant ?? JourneyStarted.defaultTenant) == tenant,
                    let message = try JourneyWebhookMessage(
                        event: step.event, eventID: recorded.id,
                        journeyID: journeyID, started: started)
                else { continue }
                page.items.append([
                    "position": recorded.position, "id": message.messageID, "type": message.type,
                    "timestamp": timestamp.format(recorded.recordedAt),
                    "data": try JSONSerialization.jsonObject(with: Data(message.payload.text.utf8)),
                ])
                if page.items.count == query.limit {
                    page.hasMore = true
                    return page
                }
            }
        }
        page.hasMore = true
        return page
    }

    private static func invalid(_ parameter: String, _ detail: String) -> Problem {
        Problem(status: .badRequest, code: "invalid_query", detail: detail, extra: ["parameter": parameter, "field": parameter])
    }
}
