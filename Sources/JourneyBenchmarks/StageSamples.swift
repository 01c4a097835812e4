import JourneyAPI
import JourneyEngine
import Observability
import Synchronization

/// Per-stage times of timed journey starts (``StartStage``), summarized as p50/p99/mean per stage.
final class StageSamples: Sendable {
    /// One stage's figures over every start; `handler` is the sum of a start's stages.
    struct Figure: Sendable, Codable, Equatable {
        let stage: String
        let p50_ms: Double
        let p99_ms: Double
        let mean_ms: Double
    }

    /// The figures' name for a whole start's time in the handler.
    static let handler = "handler"

    private let samples = Mutex<[String: [Double]]>([:])

    /// Adds one start's stages (a stage it did not run counts as zero).
    func add(_ stages: [StageTimer.Stage]) {
        samples.withLock { samples in
            var total = 0.0
            var seen = Set<String>()
            for stage in stages {
                let seconds = stage.duration / .seconds(1)
                samples[stage.name, default: []].append(seconds)
                total += seconds
                seen.insert(stage.name)
            }
            for name in StartStage.all where !seen.contains(name) { samples[name, default: []].append(0) }
            samples[Self.handler, default: []].append(total)
        }
    }

    /// Every stage in ``StartStage/all`` order (others after them), then `handler`.
    func figures() -> [Figure] {
        let samples = samples.withLock { $0 }
        let names =
            StartStage.all + samples.keys.filter { !StartStage.all.contains($0) && $0 != Self.handler }.sorted()
            + [Self.handler]
        return names.compactMap { name in
            guard let values = samples[name], !values.isEmpty else { return nil }
            let stats = LatencyStats(durations: values, seconds: 1)
            return Figure(
                stage: name, p50_ms: stats.p50Milliseconds, p99_ms: stats.p99Milliseconds,
                mean_ms: values.reduce(0, +) / Double(values.count) * 1000)
        }
    }
}
