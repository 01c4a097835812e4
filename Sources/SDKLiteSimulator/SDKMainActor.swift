import Dispatch

/// The simulator's "main queue": every SDK callback and every SDK object lives here.
///
/// A global actor whose executor is one serial `DispatchQueue`, so callbacks never arrive on the
/// thread that did the network call, just as UIKit SDKs call back on the main queue.
@globalActor
public actor SDKMainActor {
    public static let shared = SDKMainActor()

    private nonisolated static let executor = MainQueueExecutor()

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        Self.executor.asUnownedSerialExecutor()
    }

    /// True when the caller runs on the SDK's main queue (the check a test makes inside a callback).
    public nonisolated static var isOnMainQueue: Bool {
        executor.isCurrent
    }

    /// Runs `body` on the SDK's main queue.
    public static func run<T: Sendable>(_ body: @SDKMainActor () throws -> T) async rethrows -> T {
        try await body()
    }
}
