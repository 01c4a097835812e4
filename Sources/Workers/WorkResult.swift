import Foundation

/// How performing a ``WorkItem`` ended.
public enum WorkResult: Hashable, Sendable {
    /// Finished for good (`outcome` says how: `expired`, `process_created`, `stale`, ...): never run again.
    case done(String)
    /// Not finished: claimable again at `at` (a Unico 429/5xx, a conflict, a lookup that failed).
    case later(Date, String)

    /// The short outcome label (no personal data).
    public var outcome: String {
        switch self {
        case .done(let outcome), .later(_, let outcome): outcome
        }
    }
}
