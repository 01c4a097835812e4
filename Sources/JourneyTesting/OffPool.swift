import Foundation

/// Runs blocking work (a child process, `pg_ctl`, a blocking read) on a thread of its own, so it
/// never holds one of the cooperative pool's few threads that every parallel test shares.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
