import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Sends webhook requests and keeps none of an answer's body: the status and headers count, an
/// announced body over `maxResponseBytes` is refused and a streamed one cancelled once past it,
/// and the bytes are counted, never kept, so a receiver streaming gigabytes cannot grow memory.
///
/// FoundationNetworking (Swift 6.3 on Linux) finishes the task at once on cancel but its libcurl
/// transfer may go on draining the socket in the background until the receiver stops or the
/// request timeout; those bytes are dropped as they arrive. Refuses HTTP redirects too: a webhook goes to the
/// configured URL only, and a 3xx counts as a failure.
final class WebhookSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// What came back: the status line and headers, and whether the body was cut at the cap.
    struct Answer: Sendable {
        let response: HTTPURLResponse
        let truncated: Bool
    }

    private struct Pending {
        let continuation: CheckedContinuation<Answer, any Error>
        var response: HTTPURLResponse?
        var received = 0
        var truncated = false
    }

    let maxResponseBytes: Int
    private let pending = Mutex<[Int: Pending]>([:])

    init(maxResponseBytes: Int) {
        self.maxResponseBytes = maxResponseBytes
    }

    /// Sends `body` with `request` on `session` (whose delegate this is) and waits for the answer.
    ///
    /// Not cancellable: cancelling an in-flight FoundationNetworking task from a cancellation
    /// handler can deadlock (see the dispatcher); the request's timeout bounds the call.
    func upload(_ session: URLSession, request: URLRequest, body: Data) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.uploadTask(with: request, from: body)
            pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        pending.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        // An announced body over the cap is refused before any of it is read.
        completionHandler(response.expectedContentLength > Int64(maxResponseBytes) ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cut = pending.withLock { pending -> Bool in
            guard var entry = pending[dataTask.taskIdentifier], !entry.truncated else { return false }
            entry.received += data.count
            entry.truncated = entry.received > maxResponseBytes
            pending[dataTask.taskIdentifier] = entry
            return entry.truncated
        }
        // Off the delegate queue: FoundationNetworking's cancel waits on queues this callback holds.
        if cut { DispatchQueue.global().async { dataTask.cancel() } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = entry.response ?? task.response as? HTTPURLResponse
        if let response, error == nil || entry.truncated {
            entry.continuation.resume(returning: Answer(response: response, truncated: entry.truncated))
        } else {
            entry.continuation.resume(throwing: error ?? URLError(.badServerResponse))
        }
    }
}
