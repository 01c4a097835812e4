import Foundation

/// An OAuth2 access token and when this client stops using it.
///
/// Its description never shows the token.
struct AccessToken: Sendable, Hashable, CustomStringConvertible {
    /// The bearer token.
    let value: String
    /// When the token was received, by the client's clock.
    let issuedAt: Date
    /// `issuedAt + expires_in - margin`: after this the token is replaced.
    let refreshAt: Date

    /// Whether the token may still be used at `now`.
    func isFresh(at now: Date) -> Bool { now < refreshAt }

    var description: String { "AccessToken(<redacted>, refreshAt: \(refreshAt))" }
}
