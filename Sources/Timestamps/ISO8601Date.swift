import Foundation

/// The dates people type on a command line or in a query: an ISO 8601 date (`2026-05-01`,
/// midnight UTC) or timestamp (`2026-05-01T12:30:00Z`, `2026-05-01T12:30:00.250-03:00`, up to
/// nine fraction digits); impossible dates such as `2026-02-30` are refused.
public enum ISO8601Date {
    /// The instant, and whether the text was a bare date (no time of day).
    public static func parse(_ text: String) -> (date: Date, isDateOnly: Bool)? {
        let shape = #/(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:(Z)|([+-])(\d{2}):(\d{2})))?/#
        guard let match = text.wholeMatch(of: shape) else { return nil }
        let number = { (digits: Substring?) in digits.flatMap { Int($0) } ?? 0 }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        let (hour, minute, second) = (number(match.4), number(match.5), number(match.6))
        let (offsetHours, offsetMinutes) = (number(match.10), number(match.11))
        let components = DateComponents(
            year: number(match.1), month: number(match.2), day: number(match.3),
            hour: hour, minute: minute, second: second)
        guard components.isValidDate(in: calendar), hour < 24, minute < 60, second < 60,
            offsetHours < 24, offsetMinutes < 60, let date = calendar.date(from: components)
        else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        let offset = Double(offsetHours * 3600 + offsetMinutes * 60) * (match.9 == "-" ? -1 : 1)
        return (date.addingTimeInterval(fraction - offset), match.4 == nil)
    }
}
