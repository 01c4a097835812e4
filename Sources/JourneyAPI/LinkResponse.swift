import Foundation

/// The current attempt's `link`, for an app that cannot use the SDK Lite.
struct LinkResponse: Encodable, Sendable {
    var journeyId: String
    var attempt: Int
    var link: String
    var linkExpiresAt: Date
}
