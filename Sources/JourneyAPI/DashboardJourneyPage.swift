import Audit
import Foundation
import Reports

/// One journey in the dashboard: its state, attempts, processes, timeline and disclosures (what
/// `journeys audit show` prints, from ``Audit/JourneyTimeline``), and the cancel form for keys
/// holding `journeys:write` while the journey has not ended. The subject appears only as its
/// pseudonymous reference; every value is escaped.
struct DashboardJourneyPage {
    var timeline: JourneyTimeline
    var canCancel: Bool
    /// The session's form token (nil when signed in by header: no cookie, no forged post).
    var formToken: String?
    var error: String?

    static let title = "Human Token Journeys — journey"

    var html: String {
        let e = DashboardHTML.escape
        let state = StateSummary(timeline.state)
        let id = timeline.journeyID.rawValue
        return """
            <nav><a href="/dashboard">Dashboard</a> · <a href="/dashboard/journeys">Journeys</a></nav>
            <h1>Journey <code>\(e(id))</code></h1>
            \(error.map { "<p class=\"error\" role=\"alert\">\(e($0))</p>" } ?? "")
            \(facts(state))\(attempts(state))\(processes(state))\(steps)\(disclosures)\(cancelForm(state))
            """
    }

    private static func time(_ date: Date?) -> String { date.map { ReportDate.format($0) } ?? "-" }

    func facts(_ state: StateSummary) -> String {
        let e = DashboardHTML.escape
        let rows: [(String, String?)] = [
            ("Status", state.status), ("Attempt", String(state.attempt)), ("Environment", state.environment),
            ("Flow", state.flow), ("Purpose", state.purpose), ("Client reference", state.clientReference),
            ("Subject reference", state.subjectReference),
            ("Subject erased", state.subjectErasedAt.map(ReportDate.format)),
            ("Started", state.startedAt.map(ReportDate.format)),
            ("Deadline", state.deadline.map(ReportDate.format)), ("Outcome", state.outcome),
            ("Completed", state.completedAt.map(ReportDate.format)),
            ("Abandoned", state.abandonedAt.map { "\(ReportDate.format($0)) (\(state.abandonReason ?? "-"))" }),
            ("Last error code", state.lastErrorCode.map(String.init)),
            ("Next due", state.nextDue.map { "\($0) at \(Self.time(state.nextDueAt))" }),
        ]
        let body = rows.compactMap { name, value in value.map { "<tr><th>\(e(name))</th><td>\(e($0))</td></tr>" } }.joined()
        return "<section id=\"state\"><h2>State</h2><table>\(body)</table></section>"
    }

    func attempts(_ state: StateSummary) -> String {
        let e = DashboardHTML.escape, t = Self.time
        let rows = state.attempts.map { a in
            "<tr><td class=\"n\">\(a.number)</td><td>\(e(a.trigger))</td><td>\(t(a.requestedAt))</td>"
                + "<td>\(t(a.captureOpenedAt))</td><td>\(t(a.callbackAt))</td><td>\(e(a.processResult ?? "-"))</td>"
                + "<td>\(e(a.failure ?? "-"))\(a.sdkErrorCode.map { " (SDK \($0))" } ?? "")</td><td>\(t(a.retryAt))</td></tr>"
        }.joined()
        return "<section id=\"attempts\"><h2>Attempts</h2><table><thead><tr><th class=\"n\">#</th><th>Trigger</th>"
            + "<th>Requested</th><th>Capture opened</th><th>Callback</th><th>Result</th><th>Failure</th><th>Retry at</th>"
            + "</tr></thead><tbody>\(rows)</tbody></table></section>"
    }

    func processes(_ state: StateSummary) -> String {
        let e = DashboardHTML.escape, t = Self.time
        let rows = state.attempts.compactMap { a in
            a.processId.map { process in
                "<tr><td><code>\(e(process))</code></td><td class=\"n\">\(a.number)</td><td>\(t(a.processCreatedAt))</td>"
                    + "<td>\(t(a.tokenExpiresAt))</td><td>\(t(a.firstTokenIssuedAt))</td><td>\(t(a.resultFetchedAt))</td>"
                    + "<td>\(e(a.processResult ?? "-"))</td></tr>"
            }
        }.joined()
        return "<section id=\"processes\"><h2>Processes</h2>"
            + (rows.isEmpty
                ? "<p class=\"muted\">No Unico process yet.</p>"
                : "<table><thead><tr><th>Process</th><th class=\"n\">Attempt</th><th>Created</th><th>Token expires</th>"
                    + "<th>Token handed out</th><th>Result fetched</th><th>Result</th></tr></thead><tbody>\(rows)</tbody></table>")
            + "</section>"
    }

    var steps: String {
        let e = DashboardHTML.escape
        let rows = timeline.entries.map { entry in
            "<tr><td>\(Self.time(entry.recordedAt))</td><td class=\"n\">\(entry.version)</td><td>\(e(entry.type))</td>"
                + "<td class=\"n\">\(entry.attempt)</td><td>\(e(entry.description))</td><td>\(e(entry.actor ?? "-"))</td></tr>"
        }.joined()
        return "<section id=\"timeline\"><h2>Timeline</h2><table><thead><tr><th>Time</th><th class=\"n\">Version</th>"
            + "<th>Event</th><th class=\"n\">Attempt</th><th>Description</th><th>Actor</th></tr></thead>"
            + "<tbody>\(rows)</tbody></table></section>"
    }

    var disclosures: String {
        let e = DashboardHTML.escape
        guard !timeline.disclosures.isEmpty else {
            return "<section id=\"disclosures\"><h2>Disclosures</h2><p class=\"muted\">None.</p></section>"
        }
        let rows = timeline.disclosures.map { d in
            "<tr><td>\(Self.time(d.recordedAt))</td><td>\(e(d.actor))</td><td>\(e(d.fields.joined(separator: ", ")))</td>"
                + "<td>\(e(d.purpose))</td><td>\(e(d.channel))</td></tr>"
        }.joined()
        return "<section id=\"disclosures\"><h2>Disclosures</h2><table><thead><tr><th>Disclosed at</th><th>By</th>"
            + "<th>Fields</th><th>Purpose</th><th>Via</th></tr></thead><tbody>\(rows)</tbody></table></section>"
    }

    func cancelForm(_ state: StateSummary) -> String {
        guard canCancel, !timeline.state.status.isTerminal else { return "" }
        let e = DashboardHTML.escape
        return """
            <section id="cancel"><h2>Cancel this journey</h2>
            <p>The journey ends at once (JourneyCancelled, then JourneyAbandoned) and makes no more processes. The reason is
            recorded for ever: no personal data.</p>
            <form method="post" action="/dashboard/journeys/\(e(timeline.journeyID.rawValue))/cancel">
            \(formToken.map { "<input type=\"hidden\" name=\"\(DashboardSession.formTokenField)\" value=\"\(e($0))\">" } ?? "")
            <label>Reason <input type="text" name="reason" maxlength="200" required></label>
            <button type="submit">Cancel journey</button></form></section>
            """
    }
}
