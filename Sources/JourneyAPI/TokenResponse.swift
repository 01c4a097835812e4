import Foundation

/// A `webAppToken` for the app, with the client token when the journey starts; a start without a
/// process yet has only the client token (`status` `started`, `firstTokenBy`).
struct TokenResponse: Encodable, Sendable {
    var journeyId: String
    var attempt: Int?
    var webAppToken: String?
    var webAppTokenExpiresAt: Date?
    var environment: String
    var clientToken: String?
    var clientTokenExpiresAt: Date?
    /// `started` when no process was made yet.
    var status: String? = nil
    /// When a started journey is abandoned if the app never asks for a token.
    var firstTokenBy: Date? = nil

    /// The encoder of every JSON answer: RFC 3339 dates with fractional seconds, sorted keys.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
        }
        return encoder
    }
}
