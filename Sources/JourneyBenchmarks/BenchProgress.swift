import CLI
import Foundation

/// A progress bar over a benchmark's planned wall time, on standard error (redrawn in place on
/// a terminal); for benchmarks whose workloads each run for a fixed time.
struct BenchProgress: Sendable {
    private let task: Task<Void, Never>

    static func start(label: String, seconds: Double) -> BenchProgress {
        let total = max(1, Int(seconds * 10))
        return BenchProgress(
            task: Task {
                var bar = ProgressBar(total: total, label: label)
                let started = ContinuousClock.now
                while !Task.isCancelled {
                    bar.update(done: min(total - 1, Int(started.duration(to: .now).seconds * 10)))
                    try? await Task.sleep(for: .milliseconds(200))
                }
                bar.update(done: total)
                bar.finish()
            })
    }

    /// Completes the bar and waits until it is written.
    func finish() async {
        task.cancel()
        await task.value
    }
}
