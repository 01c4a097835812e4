import Foundation

/// Fixed time rules of a journey.
public enum JourneyTiming {
    /// Lifetime of a `webAppToken`: 300 s (seed).
    public static let webAppTokenLifetime: TimeInterval = 300
    /// An unopened capture's token is handed out again only with at least 60 s left; otherwise a new attempt starts.
    public static let minimumTokenRemaining: TimeInterval = 60
    /// How long a started SDK journey waits for the app's first token request (the person may
    /// capture days after sign-up) before it is abandoned as `userAbsent`: 7 days, as long as a
    /// Unico process lives by default. No Unico process exists meanwhile.
    public static let firstCaptureWindow: TimeInterval = 7 * 24 * 3600
    /// Latest deadline a start may set, counted from the start: 30 days, the longest a Unico
    /// process (a link) may live, and over four times the first-capture window.
    public static let maximumDeadline: TimeInterval = 30 * 24 * 3600
    /// A Create Process intent without an answer after 60 s is due for reconciliation.
    public static let processCreationGrace: TimeInterval = 60
    /// First delay between Get Process calls that find the process unfinished: 5 s, doubling.
    public static let resultPollInitialInterval: TimeInterval = 5
    /// Cap on that delay: 60 s.
    public static let resultPollMaximumInterval: TimeInterval = 60

    /// Delay before the next Get Process after `pendingFetches` unfinished answers (1-based).
    public static func resultPollDelay(afterPendingFetches pendingFetches: Int) -> TimeInterval {
        let grown = resultPollInitialInterval * pow(2, Double(max(1, pendingFetches) - 1))
        return grown.isFinite ? min(grown, resultPollMaximumInterval) : resultPollMaximumInterval
    }
}
