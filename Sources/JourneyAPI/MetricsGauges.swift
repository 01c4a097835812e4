import Foundation
import Observability
import Synchronization

/// Sets gauges on the registry from the database at `now`; throws when it cannot read them (the
/// gauges then keep their last values).
public typealias MetricsGaugeReader = @Sendable (_ metrics: MetricsRegistry, _ now: Date) async throws -> Void

/// The `/metrics` gauges read from the read models, at most once per `lifetime` of the injected
/// clock, so frequent or concurrent scrapes cost the database one read per lifetime.
final class MetricsGauges: Sendable {
    private let readers: [MetricsGaugeReader]
    private let registry: MetricsRegistry
    private let clock: @Sendable () -> Date
    private let lifetime: TimeInterval
    private let lastRead = Mutex<Date?>(nil)

    init(
        readers: [MetricsGaugeReader], registry: MetricsRegistry, clock: @escaping @Sendable () -> Date,
        lifetime: Duration
    ) {
        self.readers = readers
        self.registry = registry
        self.clock = clock
        self.lifetime = lifetime / .seconds(1)
    }

    /// Runs every reader when the last read is older than `lifetime` (or in the future: the clock
    /// went back); a scrape during a read gets the values of the one before.
    func refreshIfStale() async {
        let now = clock()
        let due = lastRead.withLock { last in
            if let last, now >= last, now.timeIntervalSince(last) < lifetime { return false }
            last = now
            return true
        }
        guard due else { return }
        for reader in readers {
            try? await reader(registry, now)
        }
    }
}
