import Dispatch

/// A serial executor that runs jobs on one private `DispatchQueue`, the simulator's main queue.
final class MainQueueExecutor: SerialExecutor {
    private static let key = DispatchSpecificKey<UInt8>()
    private let queue: DispatchQueue

    init() {
        queue = DispatchQueue(label: "SDKLiteSimulator.main", qos: .userInteractive)
        queue.setSpecific(key: Self.key, value: 1)
    }

    /// Whether the current thread is running this executor's queue.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.key) != nil
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func checkIsolated() {
        precondition(isCurrent, "not on the SDK main queue")
    }
}
