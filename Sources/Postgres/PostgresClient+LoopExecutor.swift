extension PostgresClient {
    /// A `TaskExecutor` on this pool's event-loop thread (`postgres.loop`), for callers that opt in.
    ///
    /// A task that prefers it runs its nonisolated code on the loop thread between epoll waits,
    /// and a ``query(_:)`` result resumes it on that same thread: no thread wake-up per
    /// statement. All such tasks share one thread, so their code must not block: a semaphore,
    /// a sleep or any synchronous wait stalls every query of this pool. ``withConnection(_:)``
    /// and ``transaction(isolation:_:)`` are safe: their bodies run on the connection's own
    /// thread while the task is suspended. After ``close()``, jobs go to the global executor.
    public var loopExecutor: any TaskExecutor { loop }

    /// Runs `operation`, and the child tasks it creates, preferring ``loopExecutor``.
    public func withLoopExecutor<T, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await withTaskExecutorPreference(loop, isolation: isolation, operation: operation)
    }

    /// Whether the caller runs on this pool's loop thread (a task preferring ``loopExecutor``).
    public var isOnLoopThread: Bool { loop.isCurrentThread }
}
