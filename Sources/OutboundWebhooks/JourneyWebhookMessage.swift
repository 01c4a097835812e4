import Foundation
import JourneyDomain
import Postgres

/// The message a company receives when one of its journeys ends, as the `data` of a Standard
/// Webhooks body (`type` and `timestamp` are added at delivery, see ``WebhookDelivery``).
///
/// `data` holds `journeyId`, `attempt`, `environment`, `clientReference` (null when none),
/// `occurredAt`, and `outcome` (`approved`, `rejected`, `failed`) for `journey.completed` or
/// `reason` (`kind`, `sdkCode` or null, `detail`) for `journey.abandoned`. Never personal data
/// (the subject stays in the vault) and never the Human Token.
public struct JourneyWebhookMessage: Sendable, Equatable {
    public static let completedType = "journey.completed"
    public static let abandonedType = "journey.abandoned"

    /// `msg_<event id>`: stable, so a message is queued at most once per endpoint.
    public let messageID: String
    public let type: String
    public let payload: JSONB

    /// The message for `event` (the decoded `JourneyCompleted` or `JourneyAbandoned` with id
    /// `eventID`) of journey `journeyID`, started by `started`; nil for any other event.
    public init?(event: JourneyEvent, eventID: UUID, journeyID: String, started: JourneyStarted?) throws {
        var data = MessageData(journeyId: journeyID, attempt: event.attempt, environment: started?.environment.rawValue,
                               clientReference: started?.clientReference, occurredAt: event.occurredAt)
        switch event {
        case .journeyCompleted(let completed):
            type = Self.completedType
            data.outcome = completed.outcome.rawValue
        case .journeyAbandoned(let abandoned):
            type = Self.abandonedType
            data.reason = Reason(kind: abandoned.reason.kind.rawValue, sdkCode: abandoned.reason.sdkCode?.rawValue,
                                 detail: abandoned.reason.detail)
        default:
            return nil
        }
        messageID = "msg_" + eventID.uuidString.lowercased()
        payload = try JSONB(encoding: data, encoder: EventJSON.makeEncoder())
    }

    struct Reason: Encodable, Equatable {
        var kind: String
        var sdkCode: Int?
        var detail: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(sdkCode, forKey: .sdkCode)
            try container.encode(detail, forKey: .detail)
        }

        enum CodingKeys: String, CodingKey { case kind, sdkCode, detail }
    }

    struct MessageData: Encodable {
        var journeyId: String
        var attempt: Int
        var environment: String?
        var clientReference: String?
        var occurredAt: Date
        var outcome: String?
        var reason: Reason?

        /// Optional fields of the event's kind are written as null rather than left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(journeyId, forKey: .journeyId)
            try container.encode(attempt, forKey: .attempt)
            try container.encode(environment, forKey: .environment)
            try container.encode(clientReference, forKey: .clientReference)
            try container.encode(occurredAt, forKey: .occurredAt)
            if let outcome { try container.encode(outcome, forKey: .outcome) }
            if let reason { try container.encode(reason, forKey: .reason) }
        }

        enum CodingKeys: String, CodingKey { case journeyId, attempt, environment, clientReference, occurredAt, outcome, reason }
    }
}
