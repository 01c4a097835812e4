import Foundation
import Synchronization

/// Where the emulator reads the time for every expiry it checks or stamps.
///
/// The fault script's `clockOffsetSeconds` is added on top of whatever this returns.
public protocol EmulatorClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system wall clock.
public struct SystemEmulatorClock: EmulatorClock {
    public init() {}

    public func now() -> Date { Date() }
}

/// A clock that moves only when told to: the demo's, and every test's (JourneyTesting's
/// `TestClock` is this clock, also read by the engine and the API), so tests never sleep.
public final class ManualEmulatorClock: EmulatorClock {
    private let current: Mutex<Date>

    /// Starts at `start`; default 2026-01-01T00:00:00Z.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, for a negative interval).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
