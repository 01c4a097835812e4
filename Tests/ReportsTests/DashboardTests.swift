import AccessControl
import Foundation
import HTTPServer
import JourneyTesting
import Synchronization
import Testing

/// `/dashboard`: sign-in, what a person sees in headless Chromium, and escaping of every echo.
@Suite(.serialized) struct DashboardTests {
    static let window = "from=2026-03-01&to=2026-03-07"

    @Test func signInSetsAStrictHttpOnlyCookieAndNeverTakesTheKeyFromTheURL() async throws {
        try await withService { service, fixture in
            let anonymous = try await service.send("/dashboard?\(Self.window)")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["content-type"] == "text/html; charset=utf-8")
            #expect(anonymous.text.contains("<form method=\"post\" action=\"/dashboard/session\">"))
            #expect(anonymous.text.contains("name=\"query\" value=\"from=2026-03-01&amp;to=2026-03-07\""))
            #expect(anonymous.headers["content-security-policy"]?.contains("default-src 'none'") == true)

            let keyInURL = try await service.send("/dashboard?\(Self.window)&key=\(service.reporter)")
            #expect(keyInURL.status == 401)

            let wrongScope = try await service.send("/dashboard/session", method: "POST", form: "apiKey=\(service.reader)")
            #expect(wrongScope.status == 403)
            #expect(wrongScope.headers["set-cookie"] == nil)
            let badKey = try await service.send("/dashboard/session", method: "POST", form: "apiKey=jk_aaaaaaaa_nope")
            #expect(badKey.status == 401)
            #expect(badKey.headers["set-cookie"] == nil)

            let signedIn = try await service.send(
                "/dashboard/session", method: "POST",
                form: "apiKey=\(service.reporter)&query=from%3D2026-03-01%26to%3D2026-03-07")
            #expect(signedIn.status == 303)
            #expect(signedIn.headers["location"] == "/dashboard?from=2026-03-01&to=2026-03-07")
            let cookie = try #require(signedIn.headers["set-cookie"])
            #expect(cookie.hasPrefix("journeys_dashboard="))
            #expect(!cookie.contains(service.reporter), "the cookie holds a session, never the API key")
            #expect(
                cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/dashboard")
                    && cookie.contains("Max-Age=900") && !cookie.contains("Secure"))
            let session = String(cookie.dropFirst("journeys_dashboard=".count).prefix { $0 != ";" })
            let behindTLS = try await service.send(
                "/dashboard/session", method: "POST", headers: ["X-Forwarded-Proto": "https"],
                form: "apiKey=\(service.reporter)")
            #expect(behindTLS.headers["set-cookie"]?.hasSuffix("; Secure") == true)
            #expect(behindTLS.headers["location"] == "/dashboard")

            let page = try await service.send("/dashboard?\(Self.window)", headers: ["Cookie": "journeys_dashboard=\(session)"])
            #expect(page.status == 200)
            #expect(page.text.contains("<section id=\"funnel\">"))
            let byHeader = try await service.send("/dashboard?\(Self.window)", bearer: service.reporter)
            #expect(byHeader.status == 200)
            let rawKeyCookie = try await service.send("/dashboard", headers: ["Cookie": "journeys_dashboard=\(service.reporter)"])
            #expect(rawKeyCookie.status == 401)
            let tampered = String(session.dropLast()) + (session.hasSuffix("A") ? "B" : "A")
            #expect(try await service.send("/dashboard", headers: ["Cookie": "journeys_dashboard=\(tampered)"]).status == 401)

            let keys = APIKeyStore(client: fixture.history.db.app)
            let readerID = try #require(try await keys.list().first { $0.name == "reader" }?.id)
            let readerSession = try ClientTokenIssuer.developmentSessions().issueSession(
                keyID: readerID, now: Fixture.now, lifetime: 900)
            let readerCookie = try await service.send("/dashboard", headers: ["Cookie": "journeys_dashboard=\(readerSession)"])
            #expect(readerCookie.status == 403)
            let expired = try ClientTokenIssuer.developmentSessions().issueSession(
                keyID: readerID, now: Fixture.now.addingTimeInterval(-1000), lifetime: 900)
            #expect(try await service.send("/dashboard", headers: ["Cookie": "journeys_dashboard=\(expired)"]).status == 401)
            // Sessions have their own key: one signed with the client-token key names an unknown kid.
            let reporterID = try #require(try await keys.list().first { $0.name != "reader" }?.id)
            let foreign = try ClientTokenIssuer.development().issueSession(keyID: reporterID, now: Fixture.now, lifetime: 900)
            let refused = try await service.send("/dashboard", headers: ["Cookie": "journeys_dashboard=\(foreign)"])
            #expect(refused.status == 401 && refused.text.contains("unknown key"), "\(refused.text)")

            let unsafeRedirect = try await service.send(
                "/dashboard/session", method: "POST",
                form: "apiKey=\(service.reporter)&query=%0D%0ASet-Cookie:x=1")
            #expect(unsafeRedirect.headers["location"] == "/dashboard")

            // Revoking the key ends its sessions at once.
            let reporterPrefix = String(service.reporter.split(separator: "_")[1])
            try await keys.revoke(reporterPrefix)
            #expect(try await service.send("/dashboard", headers: ["Cookie": "journeys_dashboard=\(session)"]).status == 401)
        }
    }

    @Test func parametersAreEscapedNotInjected() async throws {
        try await withService { service, _ in
            let attack = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>"
            let encoded = attack.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let page = try await service.send(
                "/dashboard?from=\(encoded)&to=2026-03-07&environment=\(encoded)", bearer: service.reporter)
            #expect(page.status == 400)
            #expect(!page.text.contains("<script>"))
            #expect(!page.text.contains("<img"))
            #expect(
                page.text.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;\""))
            #expect(page.text.contains("role=\"alert\">from must be an ISO 8601 date"))
            let signIn = try await service.send("/dashboard?from=\(encoded)")
            #expect(!signIn.text.contains("<script>"))
        }
    }

    @Test func chromiumShowsTheFunnelErrorsRatesHistogramAndFilters() async throws {
        try await withService(listening: true) { service, _ in
            let dom = try await Chromium.dumpDOM(signingInTo: service, query: "from=2026-03-01&to=2026-03-07")
            #expect(dom.contains("<title>Human Token Journeys — compliance dashboard</title>"))
            #expect(dom.contains("<h2>Funnel</h2>"))
            #expect(
                dom.contains(
                    "Journeys started from 2026-03-01T00:00:00.000Z until 2026-03-08T00:00:00.000Z (UTC), all environments."))
            for (step, text) in [
                ("started", "10"), ("token issued", "10 (100.0% of previous)"),
                ("capture opened", "8 (80.0% of previous)"), ("callback", "6 (75.0% of previous)"),
                ("result fetched", "5 (83.3% of previous)"), ("approved", "4 (80.0% of previous)"),
            ] {
                #expect(dom.contains(">\(step)</text>"), "\(step)")
                #expect(dom.contains(">\(text)</text>"), "\(text)")
            }
            #expect(dom.contains("<h2>SDK error codes</h2>"))
            #expect(dom.contains("3 SDK errors in 11 attempts"))
            #expect(dom.contains("<td>Running on the simulator</td>"))
            #expect(dom.contains("<h2>Expiry and retry rates over time</h2>"))
            #expect(dom.contains(">18.2%</div>"))
            #expect(dom.contains("<h2>Time to result</h2>"))
            #expect(dom.contains(">400.0 s</div>"))
            #expect(dom.contains(">10-30m</text>"))
            #expect(dom.contains("<form class=\"filters\" method=\"get\" action=\"/dashboard\">"))
            #expect(dom.contains("name=\"from\" value=\"2026-03-01\""))
            #expect(dom.contains("<option value=\"PROD\">PROD</option>"))
        }
    }

    @Test func chromiumRendersInjectedParametersAsText() async throws {
        try await withService(listening: true) { service, _ in
            let attack = "<script>document.title='owned'</script>"
            let query = "from=" + attack.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&to=2026-03-07"
            let dom = try await Chromium.dumpDOM(signingInTo: service, query: query)
            #expect(dom.contains("<title>Human Token Journeys — compliance dashboard</title>"))
            #expect(!dom.contains("owned</title>"))
            #expect(!dom.contains("<script>document.title"))
            #expect(dom.contains("value=\"&lt;script&gt;document.title='owned'&lt;/script&gt;\""))
            #expect(dom.contains("from must be an ISO 8601 date"))
        }
    }
}

/// Headless Chromium (Debian's `chromium`) loading the dashboard as a person would: a page on
/// another loopback port (same site) posts the sign-in form, the service sets its cookie and
/// redirects to the dashboard, and Chromium prints the final DOM.
enum Chromium {
    static func dumpDOM(signingInTo service: ServiceHarness, query: String) async throws -> String {
        let e = { (text: String) in
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;")
        }
        let page = """
            <!DOCTYPE html><html><body>
            <form method="post" action="http://127.0.0.1:\(service.port)/dashboard/session">
            <input name="apiKey" value="\(e(service.reporter))"><input name="query" value="\(e(query))"></form>
            <script>document.forms[0].submit()</script></body></html>
            """
        var router = Router()
        router.get("/") { _ in .html(page) }
        let launcher = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), router: router, accessLog: { _ in })
        try launcher.start()
        defer { Task { await launcher.shutdown() } }
        let port = try #require(launcher.port)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try await run([
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=15000", "--dump-dom",
            "http://127.0.0.1:\(port)/",
        ])
    }

    /// Runs chromium with `arguments`, returning standard output; fails after 60 s.
    static func run(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read on a thread of its own: a blocking read must not hold one of the few threads
        // the parallel test run shares.
        let read = Mutex<Data?>(nil)
        let thread = Thread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            read.withLock { $0 = data }
        }
        thread.start()
        do {
            try await waitUntil("chromium finishes") { !process.isRunning }
        } catch {
            process.terminate()
            throw error
        }
        let data = try await waitFor("chromium's output read to its end") { read.withLock { $0 } }
        return String(decoding: data, as: UTF8.self)
    }
}
