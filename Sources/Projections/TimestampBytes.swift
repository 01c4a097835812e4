import Foundation
import Timestamps

/// ``RFC3339/string(from:)``'s text (UTC, six fraction digits) written straight into bytes, for the
/// timestamp fields of a rebuild's `COPY` rows: no intermediate strings. Years outside 0...9999 go
/// through `RFC3339` itself.
enum TimestampBytes {
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let total = RFC3339.microseconds(since1970: date)
        let perDay: Int64 = 86_400_000_000
        var days = total / perDay
        if total % perDay != 0, total < 0 { days -= 1 }
        let inDay = total - days * perDay
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return bytes.append(contentsOf: RFC3339.string(from: date).utf8) }
        let seconds = inDay / 1_000_000
        digits(year, 4, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2, &bytes)
        bytes.append(UInt8(ascii: "T"))
        digits(seconds / 3600, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds / 60 % 60, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds % 60, 2, &bytes)
        bytes.append(UInt8(ascii: "."))
        digits(inDay % 1_000_000, 6, &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `value` (0 ≤ value < 10^width) in exactly `width` digits.
    private static func digits(_ value: Int64, _ width: Int, _ bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's algorithm, as `RFC3339`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (month <= 2 ? yearOfEra + era * 400 + 1 : yearOfEra + era * 400, month, day)
    }
}
