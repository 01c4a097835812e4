import Foundation
import Reports

/// The dashboard's HTML: filter form, funnel, SDK error codes, expiry and retry over time, and
/// the time-to-result histogram. Every value from the request or the database is escaped.
struct DashboardPage {
    /// The filter form's values as the user typed them (echoed back, escaped).
    struct Filters {
        var from: String
        var to: String
        var environment: String
    }

    var filters: Filters
    var parameters: ReportParameters
    var funnel: FunnelReport
    var errors: SDKErrorReport
    var expiry: ExpiryRetryReport
    var timing: TimeToResultReport

    static let title = "Human Token Journeys — compliance dashboard"

    /// The filter form; `error` is shown above it.
    static func form(_ filters: Filters, error: String? = nil) -> String {
        let e = DashboardHTML.escape
        let options = [("", "All environments"), ("UAT", "UAT"), ("PROD", "PROD")].map { value, label in
            "<option value=\"\(value)\"\(filters.environment.uppercased() == value ? " selected" : "")>\(label)</option>"
        }.joined()
        return """
            <nav><a href="/dashboard/journeys">Journeys</a></nav>
            <h1>\(e(title))</h1>
            \(error.map { "<p class=\"error\" role=\"alert\">\(e($0))</p>" } ?? "")
            <form class="filters" method="get" action="/dashboard">
            <label>From <input type="date" name="from" value="\(e(filters.from))"></label>
            <label>To <input type="date" name="to" value="\(e(filters.to))"></label>
            <label>Environment <select name="environment">\(options)</select></label>
            <button type="submit">Apply</button>
            </form>
            """
    }

    var html: String {
        Self.form(filters) + caption + funnelSection + errorSection + expirySection + timingSection
    }

    /// What the figures cover, as parsed (UTC).
    var caption: String {
        "<p class=\"muted\" id=\"window\">Journeys started from \(ReportDate.format(parameters.from)) until "
            + "\(ReportDate.format(parameters.to)) (UTC), \(parameters.environment.map { "environment \($0.rawValue)" } ?? "all environments").</p>"
    }

    var funnelSection: String {
        let bars = funnel.steps.map { step in
            DashboardCharts.Bar(
                label: step.step, value: Double(step.journeys),
                text: "\(step.journeys)" + (step.fromPrevious.map { " (\(Self.percent($0)) of previous)" } ?? ""))
        }
        let drops = funnel.dropOffs.map { drop in
            DashboardCharts.Bar(
                label: drop.dropOff, value: Double(drop.journeys),
                text: "\(drop.journeys)" + (drop.fromCaptureOpened.map { " (\(Self.percent($0)) of capture opened)" } ?? ""))
        }
        return "<section id=\"funnel\"><h2>Funnel</h2>"
            + DashboardCharts.horizontalBars(bars, title: "Journeys reaching each step")
            + "<div id=\"drop-offs\"><h3>Drop-offs</h3>"
            + DashboardCharts.horizontalBars(drops, title: "Captures that ended without a result", color: "#d8613a")
            + "</div></section>"
    }

    var errorSection: String {
        let e = DashboardHTML.escape
        let bars = errors.codes.map {
            DashboardCharts.Bar(
                label: String($0.code), value: Double($0.count),
                text: "\($0.count) (\(Self.percent($0.share)))")
        }
        let rows = errors.codes.map {
            "<tr><td>\($0.code)</td><td class=\"n\">\($0.count)</td><td class=\"n\">\(Self.percent($0.share))</td>"
                + "<td>\(e($0.meaning))</td><td>\(e($0.recommendedAction))</td></tr>"
        }.joined()
        return "<section id=\"sdk-errors\"><h2>SDK error codes</h2>"
            + "<p>\(errors.errors) SDK errors in \(errors.attempts) attempts</p>"
            + DashboardCharts.horizontalBars(bars, title: "SDK errors by code", color: "#d8613a")
            + "<table><thead><tr><th>Code</th><th class=\"n\">Count</th><th class=\"n\">Share</th><th>Meaning</th>"
            + "<th>Recommended action</th></tr></thead><tbody>\(rows)</tbody></table></section>"
    }

    var expirySection: String {
        let day = { (text: String) in String(text.dropFirst(5)) }
        let expired = expiry.days.map {
            DashboardCharts.Bar(
                label: day($0.day), value: $0.expiredShare ?? 0,
                text: Self.percent($0.expiredShare ?? 0))
        }
        let retried = expiry.days.map {
            DashboardCharts.Bar(
                label: day($0.day), value: $0.retriedShare ?? 0,
                text: Self.percent($0.retriedShare ?? 0))
        }
        return "<section id=\"expiry-retry\"><h2>Expiry and retry rates over time</h2>"
            + "<div class=\"figures\"><div>Attempts expired<div class=\"figure\">\(Self.percent(expiry.expiredShare ?? 0))</div></div>"
            + "<div>Retries per journey<div class=\"figure\">\(String(format: "%.2f", expiry.retriesPerJourney ?? 0))</div></div>"
            + "<div>Retry success rate<div class=\"figure\">\(expiry.retrySuccessRate.map(Self.percent) ?? "-")</div></div></div>"
            + "<h3>Share of attempts expired, per day</h3>"
            + DashboardCharts.columns(expired, title: "Share of attempts expired per day", color: "#c0392b", maximum: 1)
            + "<h3>Share of journeys retried, per day</h3>"
            + DashboardCharts.columns(retried, title: "Share of journeys retried per day", color: "#8e44ad", maximum: 1)
            + "</section>"
    }

    var timingSection: String {
        let bars = timing.histogram.map {
            DashboardCharts.Bar(label: $0.label, value: Double($0.journeys), text: String($0.journeys))
        }
        let figure = { (name: String, value: Double?) in
            "<div>\(name)<div class=\"figure\">\(value.map { String(format: "%.1f s", $0) } ?? "-")</div></div>"
        }
        return "<section id=\"time-to-result\"><h2>Time to result</h2>"
            + "<div class=\"figures\">" + figure("p50 from start", timing.fromStart.p50)
            + figure("p90 from start", timing.fromStart.p90)
            + figure("p99 from start", timing.fromStart.p99) + figure("p50 from callback", timing.fromCallback.p50) + "</div>"
            + DashboardCharts.columns(bars, title: "Journeys by time from start to result")
            + "</section>"
    }

    static func percent(_ ratio: Double) -> String { String(format: "%.1f%%", ratio * 100) }
}
