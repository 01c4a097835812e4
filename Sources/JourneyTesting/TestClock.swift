import Foundation
import Synchronization
import UnicoEmulator

/// A clock that moves only when the test moves it; tests never sleep for time to pass.
///
/// It is the emulator's clock (`EmulatorClock`) and, through ``read``, the engine's and the API's.
public final class TestClock: EmulatorClock, Sendable {
    private let current: Mutex<Date>

    /// Starts at `start`; default 2026-01-01T00:00:00Z.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    /// The current time.
    public func now() -> Date { current.withLock { $0 } }

    /// The clock as a function, for the engine's and the API's `clock`.
    public var read: @Sendable () -> Date { { [self] in now() } }

    /// Moves the clock forward (or back, for a negative interval).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
