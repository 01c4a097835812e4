import EventStore
import Foundation
import JourneyDomain
import Postgres

/// Unico's webhooks: only hints. Each is recorded (`WebhookReceived`), then Get Process decides
/// the outcome (``fetchResult(_:)``).
extension Journeys {
    /// Stream of webhooks that matched no journey.
    public static let unmatchedWebhooks = StreamName("unico-webhooks")
    /// The most characters of each field an unmatched webhook records. 128.
    public static let unmatchedFieldLimit = 128
    /// The actor of Unico's webhooks.
    static let webhookActor = "unico-webhook"

    /// The journey whose attempt created `processID` (table `process_journeys`, schema/0005).
    public func journey(ofProcess processID: ProcessID) async throws -> JourneyID? {
        let rows = try await database.query(EngineStatements.journeyOfProcess(processID))
        return try rows.first.map { JourneyID(try $0.decode(0, as: String.self)) }
    }

    /// Records a webhook on its journey's stream.
    public func recordWebhook(_ notice: WebhookNotice, journey id: JourneyID) async throws {
        try await commands.execute(.recordWebhook(notice), journey: id, metadata: metadata(actor: Self.webhookActor))
    }

    /// Records a webhook of a process no journey created as `UnmatchedWebhookReceived` in
    /// ``unmatchedWebhooks`` (no journey stream to put it in; auditors still see it).
    /// Each field is cut to ``unmatchedFieldLimit`` characters: anyone holding the webhook
    /// credentials could otherwise grow the log forever with large values.
    public func recordUnmatchedWebhook(_ notice: WebhookNotice, flow: String?) async throws {
        let fields: [String: String?] = [
            "processId": notice.processID.rawValue, "state": notice.state, "flow": flow,
            "result": notice.result, "lastEvent": notice.lastEvent,
        ]
        let data = fields.mapValues { $0.map { String($0.prefix(Self.unmatchedFieldLimit)) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = JSONB(text: String(decoding: try encoder.encode(data.compactMapValues { $0 }), as: UTF8.self))
        let event = NewEvent(type: "UnmatchedWebhookReceived", data: json, metadata: metadata(actor: Self.webhookActor))
        _ = try await commands.transaction { context in
            try EventStore.append([event], to: Self.unmatchedWebhooks, expectedVersion: .any, on: context.connection)
        }
    }
}
