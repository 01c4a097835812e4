import Foundation

/// A `webAppToken` for the app, with the client token when the journey starts.
struct TokenResponse: Encodable, Sendable {
    var journeyId: String
    var attempt: Int
    var webAppToken: String
    var webAppTokenExpiresAt: Date
    var environment: String
    var clientToken: String?
    var clientTokenExpiresAt: Date?

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
