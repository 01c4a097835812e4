import Foundation
import HTTPServer
import JourneyDomain
import Reports

/// The dashboard's journey list: filter form, one row per journey, and the next page's link.
/// Every value is escaped; the subject is not shown.
struct DashboardJourneysPage {
    /// The filters as typed (echoed back, escaped), by query name.
    struct Filters {
        static let names = ["clientReference", "status", "environment", "createdFrom", "createdTo"]
        var values: [String: String]

        init(_ request: HTTPRequest) {
            values = Dictionary(
                Self.names.compactMap { name in request.query(name).map { (name, $0) } },
                uniquingKeysWith: { first, _ in first })
        }

        /// The filters as a query string (percent-encoded), for the next page's link.
        var query: [URLQueryItem] {
            Self.names.compactMap { name in values[name].map { URLQueryItem(name: name, value: $0) } }
        }
    }

    var filters: Filters
    var page: JourneyListing.Page

    static let title = "Human Token Journeys — journeys"

    static func form(_ filters: Filters, error: String? = nil) -> String {
        let e = DashboardHTML.escape
        let value = { (name: String) in e(filters.values[name] ?? "") }
        let statuses =
            [("", "Any status")] + JourneyStatus.allCases.filter { $0 != .notStarted }.map { ($0.rawValue, $0.rawValue) }
        let select = { (name: String, options: [(String, String)]) in
            options.map { option, label in
                "<option value=\"\(e(option))\"\(filters.values[name] == option ? " selected" : "")>\(e(label))</option>"
            }.joined()
        }
        return """
            <nav><a href="/dashboard">Dashboard</a> · <a href="/dashboard/journeys">Journeys</a></nav>
            <h1>Journeys</h1>
            \(error.map { "<p class=\"error\" role=\"alert\">\(e($0))</p>" } ?? "")
            <form class="filters" method="get" action="/dashboard/journeys">
            <label>Client reference <input type="text" name="clientReference" value="\(value("clientReference"))"></label>
            <label>Status <select name="status">\(select("status", statuses))</select></label>
            <label>Environment <select name="environment">\(select("environment", [("", "All environments"), ("UAT", "UAT"), ("PROD", "PROD")]))</select></label>
            <label>Created from <input type="text" name="createdFrom" placeholder="2026-03-01T00:00:00Z" value="\(value("createdFrom"))"></label>
            <label>Created before <input type="text" name="createdTo" placeholder="2026-03-08T00:00:00Z" value="\(value("createdTo"))"></label>
            <button type="submit">Apply</button>
            </form>
            """
    }

    var html: String {
        let e = DashboardHTML.escape
        let time = { (date: Date?) in date.map { e(ReportDate.format($0)) } ?? "-" }
        let rows = page.items.map { item in
            "<tr><td>\(time(item.startedAt))</td>"
                + "<td><a href=\"/dashboard/journeys/\(e(item.journeyId))\">\(e(item.journeyId))</a></td>"
                + "<td>\(e(item.status))</td><td>\(e(item.environment ?? "-"))</td><td>\(e(item.flow ?? "-"))</td>"
                + "<td>\(e(item.purpose ?? "-"))</td><td>\(e(item.clientReference ?? "-"))</td>"
                + "<td class=\"n\">\(item.attempt)</td><td>\(e(item.outcome ?? "-"))</td></tr>"
        }.joined()
        var next = ""
        if let cursor = page.nextCursor {
            var components = URLComponents()
            components.queryItems = filters.query + [URLQueryItem(name: "cursor", value: cursor)]
            next =
                "<p><a id=\"next-page\" href=\"/dashboard/journeys?\(e(components.percentEncodedQuery ?? ""))\">Next page</a></p>"
        }
        let table =
            page.items.isEmpty
            ? "<p class=\"muted\">No journey matches these filters.</p>"
            : """
            <table id="journeys"><thead><tr><th>Started</th><th>Journey</th><th>Status</th><th>Environment</th><th>Flow</th>
            <th>Purpose</th><th>Client reference</th><th class="n">Attempt</th><th>Outcome</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return Self.form(filters) + "<section>\(table)\(next)</section>"
    }
}
