import Foundation
import Timestamps

/// The journey decider: pure `decide` and `evolve` over ``JourneyState`` and ``JourneyEvent``.
public enum Journey {
    /// The state before any event.
    public static let initialState = JourneyState()

    /// The events that `command` produces in `state` at `now`, or the reason it is refused.
    ///
    /// `randomUnit` in `0..<1` is drawn by the caller and used only for retry jitter. An empty
    /// array means the command was already applied (a duplicate) and nothing is to be appended.
    /// Dates in the events are rounded to whole microseconds.
    public static func decide(
        _ command: JourneyCommand,
        state: JourneyState,
        now: Date,
        randomUnit: Double
    ) throws(DomainError) -> [JourneyEvent] {
        let decider = JourneyDecider(state: state, now: RFC3339.roundedToMicroseconds(now), randomUnit: randomUnit)
        return try decider.decide(command)
    }

    /// `decide` as a `Result`.
    public static func decision(
        _ command: JourneyCommand,
        state: JourneyState,
        now: Date,
        randomUnit: Double
    ) -> Result<[JourneyEvent], DomainError> {
        do {
            return .success(try decide(command, state: state, now: now, randomUnit: randomUnit))
        } catch {
            return .failure(error)
        }
    }

    /// The state after `event`.
    public static func evolve(_ state: JourneyState, _ event: JourneyEvent) -> JourneyState {
        state.applying(event)
    }

    /// The state after `events`, starting from `state`.
    public static func fold<S: Sequence>(_ events: S, from state: JourneyState = initialState) -> JourneyState
    where S.Element == JourneyEvent {
        events.reduce(state) { $0.applying($1) }
    }
}
