import Foundation
import UnicoEmulator

/// A clock that moves only when the test moves it; tests never sleep for time to pass.
///
/// One manual clock for the whole stack: it is the emulator's `ManualEmulatorClock` (the demo's
/// too) and, through ``read``, the engine's and the API's; through ``instants``, code timed on the
/// monotonic clock reads it as well.
public typealias TestClock = ManualEmulatorClock

extension ManualEmulatorClock {
    /// The clock as a function, for the engine's and the API's `clock`.
    public var read: @Sendable () -> Date { { [self] in now() } }

    /// The clock as monotonic instants, for code timed on `ContinuousClock` (a cache's entry
    /// life): they move exactly as ``now()`` moves, forward or back.
    public var instants: @Sendable () -> ContinuousClock.Instant {
        { [self] in Self.origin + .seconds(now().timeIntervalSince1970) }
    }

    /// The instant that stands for 1970-01-01T00:00:00Z.
    private static let origin = ContinuousClock.now
}
