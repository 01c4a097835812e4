import Foundation

/// The one reader of an HTTP `Retry-After` value (RFC 9110 §10.2.3): delay seconds (`120`) or an
/// HTTP-date, in any of its three forms (`Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete
/// `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6 08:49:37 1994`), all UTC.
public enum RetryAfter {
    /// The wait from `now` in seconds, never negative (a date in the past is 0); nil for anything
    /// else, a negative number included. Delay seconds too large for an `Int` come back as they
    /// are (a caller caps them).
    public static func seconds(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (48...57).contains($0) }) { return Double(text) }  // delay-seconds
        guard let date = date(from: text, now: now) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// An HTTP-date in any of its three forms; nil when `text` is none of them. `now` places an
    /// rfc850-date's two-digit year: one more than 50 years ahead of it is a century earlier.
    static func date(from text: String, now: Date) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        switch words.count {
        case 6 where words[0].hasSuffix(",") && weekdays.contains(String(words[0].dropLast())) && words[5] == "GMT":
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard words[1].count == 2, words[3].count == 4, let day = number(words[1]), let year = number(words[3])
            else { return nil }
            return date(year: year, month: words[2], day: day, time: words[4])
        case 4 where words[0].hasSuffix(",") && longWeekdays.contains(String(words[0].dropLast())) && words[3] == "GMT":
            // rfc850-date: Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let day = number(parts[0]),
                let shortYear = number(parts[2])
            else { return nil }
            var year = Calendar.utc.component(.year, from: now) / 100 * 100 + Int(shortYear)
            if year > Calendar.utc.component(.year, from: now) + 50 { year -= 100 }
            return date(year: Int64(year), month: parts[1], day: day, time: words[2])
        case 5 where weekdays.contains(words[0]):
            // asctime-date: Sun Nov  6 08:49:37 1994
            guard (1...2).contains(words[2].count), words[4].count == 4, let day = number(words[2]),
                let year = number(words[4])
            else { return nil }
            return date(year: year, month: words[1], day: day, time: words[3])
        default:
            return nil
        }
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant of a date and an `HH:MM:SS` time of day, nil when either is impossible.
    private static func date(year: Int64, month name: String, day: Int64, time: String) -> Date? {
        guard let index = months.firstIndex(of: name) else { return nil }
        let month = Int64(index + 1)
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = number(clock[0]),
            let minute = number(clock[1]), let second = number(clock[2]),
            hour < 24, minute < 60, second <= 60, day >= 1, day <= RFC3339.daysInMonth(year: year, month: month)
        else { return nil }
        let days = RFC3339.daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// ASCII digits only (no sign, no blank) as a number.
    private static func number(_ text: some StringProtocol) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    fileprivate static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
