import Foundation
import JourneyDomain
import Postgres

/// The message a company receives for one step of its journey, as the `data` of a Standard
/// Webhooks body (`type` and `timestamp` are added at delivery, see ``WebhookDelivery``).
///
/// Every `data` holds `journeyId`, `attempt` (0 for `journey.started`), `environment`,
/// `clientReference` (null when none) and `occurredAt`; then, by type:
/// `attempt.capture_opened`: `superseded`; `attempt.replaced`: `replacedBy` and `reason` (`kind`
/// `newCapture` or `tokenRefresh`); `attempt.failed` / `attempt.expired`: `reason`
/// (`kind`, `sdkCode` or null, `detail`) and `retryAt` (null when the policy gave up and
/// `journey.abandoned` follows); `journey.completed`: `outcome` (`approved`, `rejected`,
/// `failed`); `journey.abandoned`: `reason`. Never personal data (the subject stays in the
/// vault) and never the Human Token.
public struct JourneyWebhookMessage: Sendable, Equatable {
    public static let completedType = JourneyWebhookEventType.journeyCompleted.rawValue
    public static let abandonedType = JourneyWebhookEventType.journeyAbandoned.rawValue

    /// `msg_<event id>`: stable, so a message is queued at most once per endpoint.
    public let messageID: String
    public let type: String
    public let payload: JSONB

    /// The message for `event` (decoded, with id `eventID`) of journey `journeyID`, started by
    /// `started`; nil for an event that ``JourneyWebhookEventType/of(_:)`` does not send.
    public init?(event: JourneyEvent, eventID: UUID, journeyID: String, started: JourneyStarted?) throws {
        guard let type = JourneyWebhookEventType.of(event) else { return nil }
        var data = MessageData(
            journeyId: journeyID, attempt: event.attempt, environment: started?.environment.rawValue,
            clientReference: started?.clientReference, occurredAt: event.occurredAt)
        switch event {
        case .captureOpened(let opened):
            data.superseded = opened.superseded
        case .attemptFailed(let failed):
            data.reason = Reason(
                kind: failed.reason.kind.rawValue, sdkCode: failed.reason.sdkCode?.rawValue,
                detail: failed.reason.detail)
            data.retryAt = .some(failed.retryAt)
        case .attemptReplaced(let replaced):
            data.replacedBy = replaced.replacedBy
            data.reason = Reason(
                kind: replaced.reason.rawValue, sdkCode: nil,
                detail: replaced.reason == .newCapture
                    ? "the app asked for a new capture"
                    : "the token was about to expire")
        case .journeyCompleted(let completed):
            data.outcome = completed.outcome.rawValue
        case .journeyAbandoned(let abandoned):
            data.reason = Reason(
                kind: abandoned.reason.kind.rawValue, sdkCode: abandoned.reason.sdkCode?.rawValue,
                detail: abandoned.reason.detail)
        default:
            break
        }
        self.type = type.rawValue
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
        var superseded: Bool?
        var replacedBy: Int?
        var outcome: String?
        var reason: Reason?
        /// Set (possibly to nil, written as null) for attempt endings only.
        var retryAt: Date??

        /// Optional fields of the event's kind are written as null rather than left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(journeyId, forKey: .journeyId)
            try container.encode(attempt, forKey: .attempt)
            try container.encode(environment, forKey: .environment)
            try container.encode(clientReference, forKey: .clientReference)
            try container.encode(occurredAt, forKey: .occurredAt)
            if let superseded { try container.encode(superseded, forKey: .superseded) }
            if let replacedBy { try container.encode(replacedBy, forKey: .replacedBy) }
            if let outcome { try container.encode(outcome, forKey: .outcome) }
            if let reason { try container.encode(reason, forKey: .reason) }
            if let retryAt { try container.encode(retryAt, forKey: .retryAt) }
        }

        enum CodingKeys: String, CodingKey {
            case journeyId, attempt, environment, clientReference, occurredAt, superseded, replacedBy, outcome, reason, retryAt
        }
    }
}
