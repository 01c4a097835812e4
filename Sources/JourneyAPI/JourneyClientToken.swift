import AccessControl
import Cryptography
import Foundation

/// The app's journey-scoped client token: how long it lives and how it is issued.
enum JourneyClientToken {
    /// Lifetime of a client token: 1 hour (the issuer's maximum), longer than the retry window
    /// (30 minutes by default) plus an opened capture's grace; the backend renews it with
    /// `POST /v1/journeys/{id}/client-token` for a person who comes back later.
    static let lifetime: TimeInterval = 3600

    /// A token for `journeyID` issued at `now`, expiring after ``lifetime`` or at `until` when
    /// that comes first (never past the journey's known end), with `tokenID` as its `jti`; the
    /// token and its expiry.
    static func issue(
        _ tokens: ClientTokenIssuer, journeyID: UUID, now: Date, until: Date?, tokenID: UUID = SecureRandom.uuid()
    ) throws -> (String, Date) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        var lifetime = min(lifetime, tokens.configuration.maximumLifetime)
        if let until { lifetime = max(1, min(lifetime, until.timeIntervalSince(issuedAt).rounded(.down))) }
        let token = try tokens.issue(journeyID: journeyID, now: now, lifetime: lifetime, tokenID: tokenID)
        return (token, issuedAt.addingTimeInterval(lifetime))
    }
}
