import Synchronization

/// Counters, gauges and histograms rendered in the Prometheus text format (version 0.0.4).
///
/// Label values are the caller's responsibility: never put secrets, personal data or unbounded
/// values (ids, raw paths) in them; use route templates and stable codes.
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[String: MetricFamily]>([:])

    public init() {}

    /// Adds `amount` to a counter.
    public func increment(_ name: String, help: String, labels: [String: String] = [:], by amount: Double = 1) {
        update(name, help: help, kind: .counter) { $0.add(amount, labels: labels) }
    }

    /// Sets a counter to `value`: for totals kept by another component and read at scrape time.
    public func setCounter(_ name: String, help: String, labels: [String: String] = [:], to value: Double) {
        update(name, help: help, kind: .counter) { $0.set(value, labels: labels) }
    }

    /// Sets a gauge.
    public func set(_ name: String, help: String, labels: [String: String] = [:], to value: Double) {
        update(name, help: help, kind: .gauge) { $0.set(value, labels: labels) }
    }

    /// Records one observation in a histogram with `buckets` (upper bounds, ascending).
    public func observe(
        _ name: String, help: String, labels: [String: String] = [:], value: Double,
        buckets: [Double] = MetricFamily.defaultBuckets
    ) {
        update(name, help: help, kind: .histogram(buckets)) { $0.observe(value, labels: labels) }
    }

    /// The exposition text, families sorted by name.
    public func render() -> String {
        families.withLock { families in
            families.keys.sorted().map { families[$0]!.render() }.joined()
        }
    }

    private func update(_ name: String, help: String, kind: MetricFamily.Kind, _ body: (inout MetricFamily) -> Void) {
        families.withLock { families in
            var family = families[name] ?? MetricFamily(name: name, help: help, kind: kind)
            body(&family)
            families[name] = family
        }
    }
}
