import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One `URLSessionDataTask` awaited through a continuation that is resumed exactly once.
///
/// Cancelling the awaiting task resumes it at once with `CancellationError` and cancels the data
/// task from another thread. FoundationNetworking's own async API cancels inline, inside the
/// Swift task's cancellation handler: its `cancel()` waits on the session's queue while the
/// completion, run on that queue, waits on the task's status lock (a deadlock seen on Linux).
/// Here the handler only flips this call's state and resumes; nothing it does waits on
/// FoundationNetworking, and the completion handler resumes outside any lock.
enum CancellableDataTask {
    /// Sends `request` on `session`; throws `CancellationError` promptly when the caller is cancelled,
    /// the session's `URLError` otherwise.
    static func data(_ session: URLSession, for request: URLRequest) async throws -> (Data, URLResponse) {
        let call = Call()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        call.finish(.failure(error))
                    } else if let response {
                        call.finish(.success((data ?? Data(), response)))
                    } else {
                        call.finish(.failure(URLError(.badServerResponse)))
                    }
                }
                if call.start(continuation, task: task) {
                    task.resume()
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// The state shared by the awaiting task, the completion handler and the cancellation handler.
    final class Call: Sendable {
        typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

        private enum State {
            case idle
            case waiting(Continuation, URLSessionDataTask)
            case cancelled
            case finished
        }

        private let state = Mutex<State>(.idle)

        /// Records the continuation; false when the caller was cancelled first (the task is never resumed).
        func start(_ continuation: Continuation, task: URLSessionDataTask) -> Bool {
            let started = state.withLock { state -> Bool in
                guard case .idle = state else { return false }
                state = .waiting(continuation, task)
                return true
            }
            return started
        }

        /// Resumes with the data task's outcome unless cancellation already resumed.
        func finish(_ result: Result<(Data, URLResponse), any Error>) {
            let continuation = state.withLock { state -> Continuation? in
                guard case .waiting(let continuation, _) = state else { return nil }
                state = .finished
                return continuation
            }
            continuation?.resume(with: result)
        }

        /// Resumes with `CancellationError` now; the data task is cancelled off this thread.
        func cancel() {
            let waiting = state.withLock { state -> (Continuation, URLSessionDataTask)? in
                switch state {
                case .idle:
                    state = .cancelled
                    return nil
                case .waiting(let continuation, let task):
                    state = .cancelled
                    return (continuation, task)
                case .cancelled, .finished:
                    return nil
                }
            }
            guard let (continuation, task) = waiting else { return }
            continuation.resume(throwing: CancellationError())
            let cancellable = UncheckedTask(task: task)
            DispatchQueue.global().async { cancellable.task.cancel() }
        }
    }

    /// A data task handed to another queue; `cancel()` is safe from any thread.
    private struct UncheckedTask: @unchecked Sendable {
        let task: URLSessionDataTask
    }
}
