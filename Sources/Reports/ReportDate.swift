import Foundation

/// How reports print instants (their window's bounds are parsed by `Timestamps.ISO8601Date`).
public enum ReportDate {
    /// RFC 3339 in UTC with milliseconds, as reports print instants.
    public static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
