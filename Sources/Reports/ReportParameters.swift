import Foundation
import JourneyDomain

/// What a report covers: journeys started in `[from, to)`, optionally in one environment.
public struct ReportParameters: Sendable, Equatable {
    /// Inclusive start of the window (journeys' start time).
    public var from: Date
    /// Exclusive end of the window; a bare date given as `to` means the end of that day.
    public var to: Date
    /// Only journeys in this environment; nil for all.
    public var environment: Environment?
    /// The subject reference of `subject-history`.
    public var subject: SubjectReference?
    /// `sla`: minutes a success callback may wait for its result. Default 10.
    public var thresholdMinutes: Int
    /// `sla`: minutes without an event after which a non-terminal journey counts as stuck. Default 60.
    public var stuckMinutes: Int
    /// The time SLA ages are measured at (an injected clock's now).
    public var now: Date
    /// Only journeys of this tenant (the API sets the caller's); nil for every tenant (the CLI).
    public var tenant: String?
    /// Where counts of whole days come from. Default ``ReportSource/rollups``.
    public var source: ReportSource = .rollups

    public init(
        from: Date, to: Date, environment: Environment? = nil, subject: SubjectReference? = nil,
        thresholdMinutes: Int = 10, stuckMinutes: Int = 60, now: Date, tenant: String? = nil
    ) {
        self.from = from
        self.to = to
        self.environment = environment
        self.subject = subject
        self.thresholdMinutes = thresholdMinutes
        self.stuckMinutes = stuckMinutes
        self.now = now
        self.tenant = tenant
    }
}

/// Where a report reads the whole days of its window.
public enum ReportSource: Sendable, Equatable {
    /// The daily rollups, with the partial days at the edges from the read models (exact).
    case rollups
    /// Every journey of the window from the read models (what the rollups are checked against).
    case readModels
}
