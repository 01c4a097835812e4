import Foundation

/// An attempt's `link`, for an app that cannot use the SDK Lite.
public struct IssuedLink: Sendable, Equatable {
    public var attempt: Int
    public var link: String
    public var expiresAt: Date

    public init(attempt: Int, link: String, expiresAt: Date) {
        self.attempt = attempt
        self.link = link
        self.expiresAt = expiresAt
    }
}
