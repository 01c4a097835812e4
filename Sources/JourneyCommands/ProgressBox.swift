import CLI
import Synchronization

/// A progress bar shared with a `@Sendable` progress callback.
final class ProgressBox: Sendable {
    private let bar: Mutex<ProgressBar?>
    init(_ bar: ProgressBar?) { self.bar = Mutex(bar) }
    func update(_ done: Int) { bar.withLock { $0?.update(done: done) } }
    func finish() { bar.withLock { $0?.finish() } }
}
