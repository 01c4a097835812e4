/// Counts of one ``KEKRotation`` run, per target and in total.
public struct RewrapTally: Sendable, Hashable {
    /// Re-wrapped under the active KEK by this run.
    public var rewrapped = 0
    /// Already under the active KEK when the run started.
    public var alreadyCurrent = 0
    /// Did not unwrap under their (configured, otherwise proven) KEK: left as they were.
    public var failed = 0
    /// Still under an older KEK when the run stopped (a batch limit, or rows that changed meanwhile).
    public var remaining = 0

    public init() {}

    /// Rows handled so far (re-wrapped or failed), for a progress bar.
    public var handled: Int { rewrapped + failed }

    static func + (lhs: RewrapTally, rhs: RewrapTally) -> RewrapTally {
        var sum = lhs
        sum.rewrapped += rhs.rewrapped
        sum.alreadyCurrent += rhs.alreadyCurrent
        sum.failed += rhs.failed
        sum.remaining += rhs.remaining
        return sum
    }
}
