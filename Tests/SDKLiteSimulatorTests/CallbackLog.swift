import JourneyTesting
import SDKLiteSimulator

/// Collects callbacks for the test delegates and lets a test wait for the one that ends a capture.
@SDKMainActor
final class CallbackLog {
    private(set) var record = CaptureRecord()
    /// The screen the capture presents over.
    weak var host: ViewController?
    /// True while the test's call into the SDK is on the stack.
    var insideCall = false

    func add(_ callback: Callback) {
        record.callbacks.append(callback)
        record.presentedAt.append(host?.presentedViewController?.title)
        if !SDKMainActor.isOnMainQueue { record.offMainQueue.append(callback) }
        if insideCall { record.duringCall.append(callback) }
    }

    /// Waits until a callback ends the capture, then returns what was recorded; a capture that
    /// never ends is reported by the expectations (`record.ending` nil), not by a hang.
    func ending(within limit: Duration = .seconds(20)) async -> CaptureRecord {
        try? await waitUntil("a callback ends the capture", limit: limit) { record.ending != nil }
        record.presentedAfterwards = host?.presentedViewController != nil
        return record
    }
}
