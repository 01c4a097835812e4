import Foundation

/// RFC 3339 timestamps: formats in UTC with six fraction digits (`2026-11-12T08:30:00.250000Z`),
/// parses any offset.
///
/// Dates round to the microsecond, PostgreSQL's `timestamptz` precision; a date that already
/// sits on a microsecond (see ``roundedToMicroseconds(_:)``) survives a round trip unchanged.
/// The one parser of events, stored rows and Unico's answers: a leap second (`:60`) is read as
/// the next minute's first second, as RFC 3339 allows it.
public enum RFC3339 {
    /// Whole microseconds since 1970-01-01T00:00:00Z, rounded to nearest.
    public static func microseconds(since1970 date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The date at `microseconds` since 1970.
    public static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    /// `date` moved to the nearest whole microsecond.
    public static func roundedToMicroseconds(_ date: Date) -> Date {
        self.date(microseconds: microseconds(since1970: date))
    }

    /// Formats `date` in UTC with six fraction digits.
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``string(from:)``'s text to `bytes` as UTF-8, without an intermediate string.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let total = microseconds(since1970: date)
        let perDay: Int64 = 86_400_000_000
        let days = floorDiv(total, perDay)
        let inDay = total - days * perDay
        let (year, month, day) = civil(fromDays: days)
        let seconds = inDay / 1_000_000
        if (0...9999).contains(year) {
            digits(year, 4, &bytes)
        } else {
            bytes.append(contentsOf: pad(year, 4).utf8)
        }
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

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`T`/`Z` in either case, or a blank for
    /// `T`); fractions beyond six digits are cut.
    public static func date(from text: String) -> Date? {
        var scanner = DigitScanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.take("-"),
            let month = scanner.number(digits: 2), scanner.take("-"),
            let day = scanner.number(digits: 2), scanner.take("T") || scanner.take("t") || scanner.take(" "),
            let hour = scanner.number(digits: 2), scanner.take(":"),
            let minute = scanner.number(digits: 2), scanner.take(":"),
            let second = scanner.number(digits: 2),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction: Int64 = 0
        if scanner.take(".") {
            var digits = 0
            while let digit = scanner.digit() {
                if digits < 6 { fraction = fraction * 10 + digit }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 6) { fraction *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if !(scanner.take("Z") || scanner.take("z")) {
            let sign: Int64
            if scanner.take("+") {
                sign = 1
            } else if scanner.take("-") {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHour = scanner.number(digits: 2), scanner.take(":"),
                let offsetMinute = scanner.number(digits: 2), offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard scanner.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return date(microseconds: seconds * 1_000_000 + fraction)
    }

    /// `value` (0 ≤ value < 10^width) in exactly `width` ASCII digits.
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

    /// `value` in at least `width` characters, zero-padded on the left (years outside 0...9999).
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func floorDiv(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let quotient = lhs / rhs
        return (lhs % rhs != 0 && (lhs < 0) != (rhs < 0)) ? quotient - 1 : quotient
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's algorithm).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads ASCII digits and punctuation from a byte array.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int64? {
        guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int64(bytes[index] - 48)
    }

    mutating func number(digits: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
