import Foundation
import JourneyDomain

/// A journey started without a Unico process: the app's first token request makes it.
public struct StartedJourney: Sendable, Equatable {
    public var journeyID: JourneyID
    public var environment: Environment
    /// The start's transaction time.
    public var startedAt: Date
    /// When the journey is abandoned if the app never asks for a token (its deadline, if earlier).
    public var firstTokenBy: Date?

    public init(journeyID: JourneyID, environment: Environment, startedAt: Date, firstTokenBy: Date?) {
        self.journeyID = journeyID
        self.environment = environment
        self.startedAt = startedAt
        self.firstTokenBy = firstTokenBy
    }
}
