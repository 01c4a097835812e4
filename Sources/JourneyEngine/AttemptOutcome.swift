import Foundation
import JourneyDomain

/// A `webAppToken` to hand to the app.
public struct IssuedToken: Sendable, Equatable {
    public var attempt: Int
    public var webAppToken: String
    public var expiresAt: Date

    public init(attempt: Int, webAppToken: String, expiresAt: Date) {
        self.attempt = attempt
        self.webAppToken = webAppToken
        self.expiresAt = expiresAt
    }
}

/// What asking for a journey's token came to: the token, or why Create Process gave none.
public struct AttemptOutcome: Sendable {
    public var journeyID: JourneyID
    public var environment: Environment
    /// The token, or `unico_not_configured` / `process_creation_failed` (with Unico's error).
    public var result: Result<IssuedToken, EngineError>
    /// When the outcome was decided (the recording transaction's time, or the clock's for a
    /// token that was still current).
    public var decidedAt: Date

    public init(journeyID: JourneyID, environment: Environment, result: Result<IssuedToken, EngineError>, decidedAt: Date) {
        self.journeyID = journeyID
        self.environment = environment
        self.result = result
        self.decidedAt = decidedAt
    }
}
