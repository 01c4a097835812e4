import Foundation

/// One metric name with its samples per label set.
public struct MetricFamily: Sendable {
    public enum Kind: Sendable, Equatable {
        case counter
        case gauge
        case histogram([Double])
    }

    /// Seconds: 1 ms to 10 s.
    public static let defaultBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Histogram: Sendable {
        var counts: [UInt64]
        var sum = 0.0
        var count: UInt64 = 0
    }

    let name: String
    let help: String
    let kind: Kind
    private var values: [LabelSet: Double] = [:]
    private var histograms: [LabelSet: Histogram] = [:]

    init(name: String, help: String, kind: Kind) {
        self.name = name
        self.help = help
        self.kind = kind
    }

    mutating func add(_ amount: Double, labels: [String: String]) {
        values[LabelSet(labels), default: 0] += amount
    }

    mutating func set(_ value: Double, labels: [String: String]) {
        values[LabelSet(labels)] = value
    }

    mutating func observe(_ value: Double, labels: [String: String]) {
        guard case .histogram(let bounds) = kind else { return }
        let key = LabelSet(labels)
        var histogram = histograms[key] ?? Histogram(counts: Array(repeating: 0, count: bounds.count))
        for (index, bound) in bounds.enumerated() where value <= bound { histogram.counts[index] += 1 }
        histogram.sum += value
        histogram.count += 1
        histograms[key] = histogram
    }

    func render() -> String {
        var lines = ["# HELP \(name) \(help)", "# TYPE \(name) \(typeName)"]
        switch kind {
        case .counter, .gauge:
            for key in values.keys.sorted() { lines.append("\(name)\(key.rendered()) \(format(values[key]!))") }
        case .histogram(let bounds):
            for key in histograms.keys.sorted() {
                let histogram = histograms[key]!
                for (index, bound) in bounds.enumerated() {
                    lines.append("\(name)_bucket\(key.rendered(adding: ("le", format(bound)))) \(histogram.counts[index])")
                }
                lines.append("\(name)_bucket\(key.rendered(adding: ("le", "+Inf"))) \(histogram.count)")
                lines.append("\(name)_sum\(key.rendered()) \(format(histogram.sum))")
                lines.append("\(name)_count\(key.rendered()) \(histogram.count)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private var typeName: String {
        switch kind {
        case .counter: return "counter"
        case .gauge: return "gauge"
        case .histogram: return "histogram"
        }
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Labels sorted by name, escaped for the text format.
struct LabelSet: Hashable, Comparable, Sendable {
    let pairs: [(String, String)]

    init(_ labels: [String: String]) {
        pairs = labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static func == (a: LabelSet, b: LabelSet) -> Bool { a.pairs.elementsEqual(b.pairs) { $0 == $1 } }
    static func < (a: LabelSet, b: LabelSet) -> Bool { a.rendered() < b.rendered() }
    func hash(into hasher: inout Hasher) {
        for (key, value) in pairs { hasher.combine(key); hasher.combine(value) }
    }

    func rendered(adding extra: (String, String)? = nil) -> String {
        let all = pairs + (extra.map { [$0] } ?? [])
        guard !all.isEmpty else { return "" }
        return "{" + all.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
    }

    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
