import Synchronization

/// Collects strings from concurrent tasks, in arrival order.
final class Recorder: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}
