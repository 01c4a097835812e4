import Postgres

/// Exact `percentile_cont` of the seconds to result without sorting the whole window: count the
/// window's journeys per `journey_result_bin` (whole days from the rollup), find the bin and the
/// offset in it of each rank a percentile interpolates between, and read just those values
/// (``ReportsStatements/resultRanks(_:measure:bins:offsets:)``).
enum ResultPercentiles {
    /// A rank's place: its bin and its 0-based offset among the window's journeys of the bin.
    private struct Place: Hashable {
        let bin: Int
        let offset: Int
    }

    static let fractions = [0.5, 0.9, 0.99]

    /// The transaction ``read(_:on:)`` needs: both statements see one snapshot.
    static let isolation = "REPEATABLE READ READ ONLY"

    /// From start and from callback, read on `connection` inside a transaction of ``isolation``.
    static func read(
        _ parameters: ReportParameters,
        on connection: PostgresConnection
    ) throws -> (TimeToResultReport.Percentiles, TimeToResultReport.Percentiles) {
        var bins: [[(bin: Int, count: Int)]] = [[], []]
        for row in try connection.query(ReportsStatements.resultBins(parameters)) {
            let measure = try row.decode(0, as: Int.self)
            guard bins.indices.contains(measure) else { continue }
            bins[measure].append((try row.decode(1, as: Int.self), try row.decode(2, as: Int.self)))
        }
        return (
            try percentiles(measure: 0, bins[0], parameters, on: connection),
            try percentiles(measure: 1, bins[1], parameters, on: connection)
        )
    }

    private static func percentiles(
        measure: Int, _ bins: [(bin: Int, count: Int)], _ parameters: ReportParameters,
        on connection: PostgresConnection
    ) throws -> TimeToResultReport.Percentiles {
        let samples = bins.reduce(0) { $0 + $1.count }
        guard samples > 0 else { return TimeToResultReport.Percentiles(samples: 0) }
        // The ranks (0-based) percentile_cont reads: floor and ceiling of p * (n - 1).
        var ranks = Set<Int>()
        for p in fractions {
            let position = p * Double(samples - 1)
            ranks.insert(Int(position.rounded(.down)))
            ranks.insert(Int(position.rounded(.up)))
        }
        var located: [Int: Place] = [:]
        var first = 0
        for (bin, count) in bins {
            for rank in ranks where rank >= first && rank < first + count {
                located[rank] = Place(bin: bin, offset: rank - first)
            }
            first += count
        }
        // Each distinct (bin, offset) is read on its own, through the bin's seconds order.
        let places = Set(located.values).sorted { ($0.bin, $0.offset) < ($1.bin, $1.offset) }
        let bins = "{" + places.map { String($0.bin) }.joined(separator: ",") + "}"
        let offsets = "{" + places.map { String($0.offset) }.joined(separator: ",") + "}"
        var seconds: [Place: Double] = [:]
        for row in try connection.query(ReportsStatements.resultRanks(parameters, measure: measure, bins: bins, offsets: offsets))
        {
            seconds[Place(bin: try row.decode(0, as: Int.self), offset: try row.decode(1, as: Int.self))] = try row.decode(
                2, as: Double.self)
        }
        func value(_ rank: Int) throws -> Double {
            guard let place = located[rank], let value = seconds[place] else {
                throw ReportError(
                    .invalidValue, parameter: "from", "the time-to-result bins changed while the report was read; run it again")
            }
            return value
        }
        // PostgreSQL's percentile_cont: first + (second - first) * (p * (n - 1) - floor).
        func percentile(_ p: Double) throws -> Double {
            let position = p * Double(samples - 1)
            let (low, high) = (position.rounded(.down), position.rounded(.up))
            let first = try value(Int(low))
            guard high != low else { return first }
            return first + (try value(Int(high)) - first) * (position - low)
        }
        return TimeToResultReport.Percentiles(
            samples: samples, p50: try percentile(0.5), p90: try percentile(0.9),
            p99: try percentile(0.99))
    }
}
