import Foundation
import Timestamps

/// One claimed delivery, ready to send; its description leaves out the secret and the payload.
struct WebhookDelivery: Sendable, CustomStringConvertible {
    var id: UUID
    var endpointID: UUID
    var messageID: String
    var eventType: String
    var payload: String
    var attempt: Int
    var createdAt: Date
    var url: String
    /// The endpoint's secret, sealed; opened only to sign.
    var sealedSecret: Data
    var secretKeyID: String
    /// The tenant of the key owning the endpoint (its allow-list applies).
    var tenant: String?

    /// The Standard Webhooks body: `{"type": ..., "timestamp": ..., "data": <payload>}`, the
    /// timestamp in RFC 3339 with six fraction digits, as the log's.
    ///
    /// Built from stored values only, so every attempt sends the same bytes.
    var body: Data {
        let type = String(decoding: (try? JSONEncoder().encode(eventType)) ?? Data("\"\"".utf8), as: UTF8.self)
        let timestamp = RFC3339.string(from: createdAt)
        return Data("{\"type\":\(type),\"timestamp\":\"\(timestamp)\",\"data\":\(payload)}".utf8)
    }

    var description: String {
        "WebhookDelivery(id: \(id), endpoint: \(endpointID), message: \(messageID), type: \(eventType), attempt: \(attempt))"
    }
}

/// What one attempt came to.
enum WebhookAttemptOutcome: Sendable, Equatable {
    case delivered(status: Int)
    case gone
    case failed(status: Int?, error: String, retryAfter: TimeInterval?)
}
