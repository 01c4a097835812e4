import Cryptography
import Foundation
import HTTPServer
import OutboundWebhooks

/// The body of `POST /v1/webhook-endpoints`: `url`, optional `eventTypes` (absent or null: every
/// type) and `apiKeyId` (absent: the calling key). Bad input is a 400 naming the field.
struct WebhookEndpointRequest: Sendable {
    var url: String
    var eventTypes: [JourneyWebhookEventType]?
    var apiKeyID: UUID

    static let maximumReasonLength = 200

    static func parse(_ body: Data, defaultKey: UUID) throws -> WebhookEndpointRequest {
        let object = try object(body, required: true)
        guard let url = object["url"] as? String else {
            throw invalid("url", "url is required: the https URL the webhooks are posted to.")
        }
        var types: [JourneyWebhookEventType]?
        switch object["eventTypes"] {
        case nil, is NSNull: types = nil
        case let list as [Any]:
            guard !list.isEmpty, let names = list as? [String] else {
                throw invalid("eventTypes", "eventTypes must be a non-empty array of event types, or null for every type.")
            }
            do {
                types = try JourneyWebhookEventType.parseList(names.joined(separator: ","))
            } catch {
                throw invalid(
                    "eventTypes",
                    "eventTypes holds an unknown type; known: "
                        + JourneyWebhookEventType.all.map(\.rawValue).joined(separator: ", ") + ".")
            }
        default:
            throw invalid("eventTypes", "eventTypes must be an array of event types, or null for every type.")
        }
        var key = defaultKey
        if let value = object["apiKeyId"], !(value is NSNull) {
            guard let text = value as? String, let id = UUID(uuidString: text) else {
                throw invalid("apiKeyId", "apiKeyId must be the id (a UUID) of an API key of your tenant.")
            }
            key = id
        }
        return WebhookEndpointRequest(url: url, eventTypes: types, apiKeyID: key)
    }

    /// The optional `reason` of a disable body (at most 200 characters, no control characters).
    static func reason(_ body: Data) throws -> String? {
        guard !body.isEmpty else { return nil }
        guard let value = try object(body, required: false)["reason"], !(value is NSNull) else { return nil }
        guard let text = value as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty,
            text.count <= maximumReasonLength, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw invalid("reason", "reason must be a non-empty string of at most \(maximumReasonLength) characters.")
        }
        return text
    }

    private static func object(_ body: Data, required: Bool) throws -> [String: Any] {
        guard !body.isEmpty || !required,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else {
            throw Problem(
                status: .badRequest, code: "invalid_json", detail: "The body must be a JSON object.",
                extra: ["field": "body"])
        }
        return object
    }

    static func invalid(_ field: String, _ detail: String) -> Problem {
        Problem(status: .badRequest, code: "validation_failed", detail: detail, extra: ["field": field])
    }
}

/// An endpoint as the API shows it: never its secret, except `secret` in the creation answer.
struct WebhookEndpointView: Encodable, Sendable {
    var id: String
    var apiKeyId: String
    var apiKeyPrefix: String
    var apiKeyRevoked: Bool
    var url: String
    /// nil: every type.
    var eventTypes: [String]?
    /// `enabled` or `disabled`.
    var status: String
    var createdAt: Date
    var disabledAt: Date?
    var disabledReason: String?
    var failingSince: Date?
    var secret: String?

    init(_ endpoint: WebhookEndpoint) {
        id = endpoint.id.uuidString.lowercased()
        apiKeyId = endpoint.apiKeyID.uuidString.lowercased()
        apiKeyPrefix = endpoint.apiKeyPrefix
        apiKeyRevoked = endpoint.keyRevoked
        url = endpoint.url
        eventTypes = endpoint.eventTypes
        status = endpoint.isEnabled ? "enabled" : "disabled"
        createdAt = endpoint.createdAt
        disabledAt = endpoint.disabledAt
        disabledReason = endpoint.disabledReason
        failingSince = endpoint.failingSince
    }
}

/// A delivery as the API shows it: where it stands, never its payload.
struct WebhookDeliveryView: Encodable, Sendable {
    var id: String
    var endpointId: String
    var messageId: String
    var eventType: String
    /// `pending`, `delivered` or `given_up`.
    var status: String
    var attempts: Int
    var createdAt: Date
    var nextAttemptAt: Date?
    var lastAttemptAt: Date?
    var lastStatus: Int?
    var lastError: String?
    var deliveredAt: Date?
    var givenUpAt: Date?
    var resendOf: String?

    init(_ record: WebhookDeliveryRecord) {
        id = record.id.uuidString.lowercased()
        endpointId = record.endpointID.uuidString.lowercased()
        messageId = record.messageID
        eventType = record.eventType
        status = record.status == .givenUp ? "given_up" : record.status.rawValue
        attempts = record.attempts
        createdAt = record.createdAt
        nextAttemptAt = record.nextAttemptAt
        lastAttemptAt = record.lastAttemptAt
        lastStatus = record.lastStatus
        lastError = record.lastError
        deliveredAt = record.deliveredAt
        givenUpAt = record.givenUpAt
        resendOf = record.resendOf?.uuidString.lowercased()
    }
}

struct DeliveryPageView: Encodable, Sendable {
    var items: [WebhookDeliveryView]
    /// Pass as `cursor` for the next page; absent on the last page.
    var nextCursor: String?
}

/// The keyset of a deliveries page (creation time in microseconds, delivery id), base64url.
struct DeliveryCursor: Sendable, Equatable {
    var createdAt: Date
    var id: UUID

    static let defaultLimit = 50
    static let maximumLimit = 200

    var micros: Int64 { Int64((createdAt.timeIntervalSince1970 * 1_000_000).rounded()) }
    var encoded: String { Base64URL.encode(Data("\(micros):\(id.uuidString.lowercased())".utf8)) }

    init(createdAt: Date, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }

    init?(encoded: String) {
        guard encoded.count <= 200, let data = Base64URL.decode(encoded),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let micros = Int64(parts[0]), (0...253_402_300_799_999_999).contains(micros),
            let id = UUID(uuidString: String(parts[1]))
        else { return nil }
        self.init(createdAt: Date(timeIntervalSince1970: Double(micros) / 1_000_000), id: id)
    }

    /// `limit` (1 to 200, default 50) and `cursor` of the query; 400 naming the parameter otherwise.
    static func query(_ request: HTTPRequest) throws -> (limit: Int, before: (createdAt: Date, id: UUID)?) {
        var limit = defaultLimit
        if let text = request.query("limit") {
            guard let value = Int(text), (1...maximumLimit).contains(value) else {
                throw Problem(
                    status: .badRequest, code: "invalid_query", detail: "limit must be an integer from 1 to \(maximumLimit).",
                    extra: ["parameter": "limit", "field": "limit"])
            }
            limit = value
        }
        guard let text = request.query("cursor") else { return (limit, nil) }
        guard let cursor = DeliveryCursor(encoded: text) else {
            throw Problem(
                status: .badRequest, code: "invalid_query",
                detail: "cursor must be a nextCursor value returned by this endpoint.",
                extra: ["parameter": "cursor", "field": "cursor"])
        }
        return (limit, (cursor.createdAt, cursor.id))
    }
}
