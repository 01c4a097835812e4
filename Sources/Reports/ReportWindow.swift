import Foundation

/// How a report reads its window: whole UTC days from the daily rollups (`journey_daily*`,
/// migration 0026), the partial days at either edge from the read models, so the answer is the
/// same as reading every journey of the window from the read models, only cheaper.
struct ReportWindow: Sendable {
    /// The first whole day's midnight; equal to `dayTo` when no whole day is read from rollups.
    let dayFrom: Date
    /// The end of the last whole day (exclusive).
    let dayTo: Date

    /// `[parameters.from, dayFrom)` and `[dayTo, parameters.to)` come from the read models.
    init(_ parameters: ReportParameters) {
        let day = 86_400.0
        let first = (parameters.from.timeIntervalSince1970 / day).rounded(.up) * day
        let last = (parameters.to.timeIntervalSince1970 / day).rounded(.down) * day
        if parameters.source == .rollups, first < last {
            (dayFrom, dayTo) = (Date(timeIntervalSince1970: first), Date(timeIntervalSince1970: last))
        } else {
            (dayFrom, dayTo) = (parameters.to, parameters.to)
        }
    }

    /// `YYYY-MM-DD` (UTC) of `dayFrom` and `dayTo`, what the rollups' `day` is compared with.
    var days: (from: String, to: String) { (Self.day(dayFrom), Self.day(dayTo)) }

    private static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
