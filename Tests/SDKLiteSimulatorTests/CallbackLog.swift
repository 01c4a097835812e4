import SDKLiteSimulator

/// Collects callbacks for the test delegates and lets a test wait for the one that ends a capture.
@SDKMainActor
final class CallbackLog {
    private(set) var record = CaptureRecord()
    /// The screen the capture presents over.
    weak var host: ViewController?
    /// True while the test's call into the SDK is on the stack.
    var insideCall = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var timeout: Task<Void, Never>?

    func add(_ callback: Callback) {
        record.callbacks.append(callback)
        record.presentedAt.append(host?.presentedViewController?.title)
        if !SDKMainActor.isOnMainQueue { record.offMainQueue.append(callback) }
        if insideCall { record.duringCall.append(callback) }
        if callback.endsCapture { wake() }
    }

    /// Waits until a callback ends the capture, or `limit` passes, then returns what was recorded.
    func ending(within limit: Duration = .seconds(20)) async -> CaptureRecord {
        if record.ending == nil {
            await withCheckedContinuation { continuation in
                waiter = continuation
                timeout = Task { [weak self] in
                    try? await Task.sleep(for: limit)
                    self?.wake()
                }
            }
        }
        record.presentedAfterwards = host?.presentedViewController != nil
        return record
    }

    private func wake() {
        timeout?.cancel()
        timeout = nil
        waiter?.resume()
        waiter = nil
    }
}
