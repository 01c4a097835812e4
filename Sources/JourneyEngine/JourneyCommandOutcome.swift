import JourneyDomain

/// What a command did to a journey's stream.
public struct JourneyCommandOutcome: Sendable {
    public let events: [JourneyEvent]
    public let state: JourneyState
    /// The stream's version after the command.
    public let version: Int64
    /// Global positions of the appended events (empty for a duplicate command).
    public let positions: [Int64]

    public init(events: [JourneyEvent], state: JourneyState, version: Int64, positions: [Int64]) {
        self.events = events
        self.state = state
        self.version = version
        self.positions = positions
    }
}
