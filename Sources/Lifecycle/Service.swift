/// A long-running part of a process (a listener, a worker, a follower of the log), in the shape
/// of swift-service-lifecycle's `Service`: `run()` works until the task is cancelled, then
/// returns (or throws) once it has stopped cleanly.
public protocol Service: Sendable {
    /// Runs until cancelled; a ``ServiceGroup`` cancels it to shut it down.
    func run() async throws
}
