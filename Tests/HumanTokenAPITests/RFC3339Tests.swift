import Foundation
import Testing
@testable import HumanTokenAPI
import Timestamps

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2025-03-01T12:34:56Z", 1_740_832_496.0),
        ("2025-03-01T12:34:56.5Z", 1_740_832_496.5),
        ("2025-03-01T12:34:56.123456789Z", 1_740_832_496.123456789),
        ("2025-03-01T14:34:56.25+02:00", 1_740_832_496.25),
        ("2025-03-01T09:04:56-03:30", 1_740_832_496.0),
        ("2024-02-29t00:00:00z", 1_709_164_800.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parses(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: [
        "", "2025-03-01", "2025-03-01T12:34:56", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
        "2025-03-01T24:00:00Z", "2025-03-01T12:34:56.Z", "2025-03-01T12:34:56Z ", "2025-03-01T12:34:56+0200",
        "20250301T123456Z",
    ])
    func rejects(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }
}
