import Foundation
import Testing
import Timestamps

/// `RFC3339.append(_:to:)` (the byte writer behind `string(from:)` and a rebuild's COPY rows)
/// against fixed texts, Foundation's Gregorian calendar and the parser.
@Suite("RFC 3339 byte writer")
struct RFC3339WriterTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000000Z"),
        (-0.000_000_4, "1970-01-01T00:00:00.000000Z"),
        (-1.0, "1969-12-31T23:59:59.000000Z"),
        (951_782_400.0, "2000-02-29T00:00:00.000000Z"),
        (1_740_832_496.25, "2025-03-01T12:34:56.250000Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59.000000Z"),
        (-62_167_219_200.0, "0000-01-01T00:00:00.000000Z"),
    ])
    func writesFixedTexts(seconds: Double, text: String) {
        var bytes: [UInt8] = []
        RFC3339.append(Date(timeIntervalSince1970: seconds), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }

    /// Years outside 0...9999 keep `string(from:)`'s historical (unpadded-sign) text.
    @Test func yearsOutsideFourDigitsStillWrite() {
        for seconds in [253_402_300_800.0, -62_167_219_201.0] {
            var bytes: [UInt8] = []
            RFC3339.append(Date(timeIntervalSince1970: seconds), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == RFC3339.string(from: Date(timeIntervalSince1970: seconds)))
            #expect(bytes.count >= 27)
        }
    }

    @Test func appendsAfterExistingBytes() {
        var bytes = Array("at=".utf8)
        RFC3339.append(Date(timeIntervalSince1970: 1_740_832_496.5), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "at=2025-03-01T12:34:56.500000Z")
    }

    /// Random dates from 1843 to 2096: the calendar fields match Foundation's Gregorian calendar in
    /// UTC, and the parser reads the text back to the microsecond-rounded date.
    @Test func matchesFoundationsCalendarAndRoundTrips() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let date = Date(timeIntervalSince1970: Double(Int64(bitPattern: seed >> 20) % 4_000_000_000_000) / 1000)
            var bytes: [UInt8] = []
            RFC3339.append(date, to: &bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text == RFC3339.string(from: date))
            let rounded = RFC3339.roundedToMicroseconds(date)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: rounded)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(text.hasPrefix(expected))
            #expect(RFC3339.date(from: text).map(RFC3339.microseconds(since1970:)) == RFC3339.microseconds(since1970: rounded))
        }
    }
}
