import AccessControl
import Foundation
import HTTPServer
@testable import JourneyAPI
import JourneyTesting
import Projections
import Testing

/// The dashboard's journey pages (issue 26 item 5): the tenant's journeys filtered and paged as
/// `GET /v1/journeys` does, one journey's timeline, attempts and processes, and the cancel form for
/// keys holding `journeys:write`; and the sign-in's cross-site refusal (issue 23).
@Suite(.serialized) struct DashboardJourneyTests {
    private func start(_ h: JourneyHarness, reference: String, key: String? = nil) async throws -> String {
        let answer = try await h.send(
            "POST", "/v1/journeys", bearer: key ?? h.writer,
            json: JourneyHarness.startBody {
                $0["clientReference"] = reference
                $0["createProcess"] = nil
            })
        #expect(answer.status == 201, "\(answer.text)")
        return try #require(answer["journeyId"] as? String)
    }

    private func catchUp(_ h: JourneyHarness) async throws {
        _ = try await ProjectionRunner(client: h.database.owner, configuration: .init(listen: false)).catchUp()
    }

    /// Signs `key` in and returns the session cookie header value.
    private func signIn(_ h: JourneyHarness, _ key: String) async throws -> String {
        let answer = try await h.stack.send("POST", "/dashboard/session", form: "apiKey=\(key)")
        #expect(answer.status == 303, "\(answer.text)")
        let cookie = try #require(answer.headers["set-cookie"])
        return String(cookie.prefix { $0 != ";" })
    }

    @Test func theJourneysPageListsTheTenantsJourneysFilteredAndPaged() async throws {
        try await withJourneys { h in
            let a1 = try await start(h, reference: "order-a")
            let b = try await start(h, reference: "order-b")
            let a2 = try await start(h, reference: "order-<a>")
            _ = try await TenantStore(client: h.database.app).create(name: "acme")
            let acme = try await APIKeyStore(client: h.database.app).create(
                name: "acme", scopes: [.journeysWrite, .journeysRead, .reportsRead], tenant: "acme"
            ).plaintext
            let foreign = try await start(h, reference: "order-a", key: acme)
            try await catchUp(h)

            let all = try await h.send("GET", "/dashboard/journeys", bearer: h.reader)
            #expect(all.status == 200, "\(all.text)")
            #expect(all.headers["content-security-policy"]?.contains("default-src 'none'") == true)
            for id in [a1, b, a2] { #expect(all.text.contains("href=\"/dashboard/journeys/\(id)\""), "\(id)") }
            #expect(!all.text.contains(foreign), "another tenant's journey is not listed")
            #expect(all.text.contains("order-&lt;a&gt;") && !all.text.contains("order-<a>"), "escaped")
            #expect(!all.text.contains("Maria") && !all.text.contains("12345678909"), "no personal data")

            let filtered = try await h.send(
                "GET",
                "/dashboard/journeys?clientReference=order-a&status=&environment=UAT"
                    + "&createdFrom=&createdTo=", bearer: h.reader)
            #expect(filtered.status == 200, "blank fields mean any: \(filtered.text)")
            #expect(filtered.text.contains(a1) && !filtered.text.contains(b) && !filtered.text.contains(a2))
            #expect(filtered.text.contains("name=\"clientReference\" value=\"order-a\""))
            let theirs = try await h.send("GET", "/dashboard/journeys?clientReference=order-a", bearer: acme)
            #expect(theirs.text.contains(foreign) && !theirs.text.contains(a1))

            // Pages: the next link carries the filters and the listing's cursor.
            let first = try await h.send("GET", "/dashboard/journeys?environment=UAT&limit=2", bearer: h.reader)
            #expect(first.text.contains(a2) && first.text.contains(b) && !first.text.contains(a1), "\(first.text)")
            let link = try #require(first.text.range(of: "id=\"next-page\" href=\"").map { first.text[$0.upperBound...] })
            let next = String(link.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            #expect(next.contains("environment=UAT") && next.contains("cursor="), "\(next)")
            let second = try await h.send("GET", next + "&limit=2", bearer: h.reader)
            #expect(second.text.contains(a1) && !second.text.contains(b), "\(second.text)")

            // Bad filters: a readable 400 naming them, the value echoed escaped.
            for (query, message) in [
                ("status=sleeping", "status must be one of"), ("environment=MARS", "environment must be UAT or PROD"),
                ("createdFrom=yesterday", "createdFrom must be"), ("cursor=%3Cscript%3E", "cursor must be"),
                ("createdFrom=2026-03-02T00:00:00Z&createdTo=2026-03-01T00:00:00Z", "createdTo must be after"),
            ] {
                let bad = try await h.send("GET", "/dashboard/journeys?\(query)", bearer: h.reader)
                #expect(bad.status == 400, "\(query): \(bad.status)")
                #expect(bad.headers["content-type"] == "text/html; charset=utf-8", "\(query)")
                #expect(bad.text.contains("role=\"alert\">\(message)"), "\(query): \(bad.text)")
                #expect(!bad.text.contains("<script>"), "\(query)")
            }

            let anonymous = try await h.send("GET", "/dashboard/journeys")
            #expect(anonymous.status == 401 && anonymous.text.contains("action=\"/dashboard/session\""))
            let reporterOnly = try await h.send("GET", "/dashboard/journeys", bearer: h.stack.reporter)
            #expect(reporterOnly.status == 403, "journeys:read is needed")
        }
    }

    @Test func theJourneyPageShowsTimelineAttemptsAndProcessesOfTheTenantsJourneysOnly() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            #expect(started.status == 201, "\(started.text)")
            let id = try #require(started["journeyId"] as? String)
            let page = try await h.send("GET", "/dashboard/journeys/\(id)", bearer: h.reader)
            #expect(page.status == 200, "\(page.text)")
            for section in ["state", "attempts", "processes", "timeline", "disclosures"] {
                #expect(page.text.contains("<section id=\"\(section)\">"), "\(section)")
            }
            #expect(page.text.contains("<td>JourneyStarted</td>") && page.text.contains("<td>ProcessCreated</td>"))
            #expect(page.text.contains("<th>Subject reference</th>"))
            #expect(!page.text.contains("Maria") && !page.text.contains("12345678909"), "the subject only by its reference")
            #expect(!page.text.contains("id=\"cancel\""), "a read-only key sees no cancel form")

            _ = try await TenantStore(client: h.database.app).create(name: "acme")
            let acme = try await APIKeyStore(client: h.database.app).create(
                name: "acme", scopes: [.journeysWrite, .journeysRead], tenant: "acme"
            ).plaintext
            let other = try await h.send("GET", "/dashboard/journeys/\(id)", bearer: acme)
            #expect(other.status == 404 && !other.text.contains("JourneyStarted"), "another tenant's journey does not exist")
            #expect(try await h.send("GET", "/dashboard/journeys/\(UUID().uuidString)", bearer: h.reader).status == 404)
            #expect(try await h.send("GET", "/dashboard/journeys/not-a-uuid", bearer: h.reader).status == 404)
        }
    }

    @Test func theCancelFormCancelsForKeysThatMayAndIsAbsentOrRefusedOtherwise() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let keys = APIKeyStore(client: h.database.app)
            let operatorKey = try await keys.create(name: "operator", scopes: [.reportsRead, .journeysRead, .journeysWrite])
                .plaintext
            let viewerKey = try await keys.create(name: "viewer", scopes: [.reportsRead, .journeysRead]).plaintext
            let path = "/dashboard/journeys/\(id)"

            // Without the scope: no form, and a post is refused.
            let viewer = try await signIn(h, viewerKey)
            let viewed = try await h.send("GET", path, headers: ["Cookie": viewer])
            #expect(viewed.status == 200 && !viewed.text.contains("id=\"cancel\""))
            let refused = try await h.stack.send("POST", path + "/cancel", headers: ["Cookie": viewer], form: "reason=done")
            #expect(refused.status == 403, "\(refused.text)")

            // With it: the form carries the session's token.
            let session = try await signIn(h, operatorKey)
            let page = try await h.send("GET", path, headers: ["Cookie": session])
            #expect(page.text.contains("<form method=\"post\" action=\"\(path)/cancel\">"), "\(page.text)")
            let marker = "name=\"formToken\" value=\""
            let token = try #require(
                page.text.range(of: marker).map { String(page.text[$0.upperBound...].prefix { $0 != "\"" }) })

            let forged = try await h.stack.send("POST", path + "/cancel", headers: ["Cookie": session], form: "reason=done")
            #expect(forged.status == 403, "a post without the form token is refused")
            let crossSite = try await h.stack.send(
                "POST", path + "/cancel", headers: ["Cookie": session, "Sec-Fetch-Site": "cross-site"],
                form: "formToken=\(token)&reason=done")
            #expect(crossSite.status == 403)
            let personal = try await h.stack.send(
                "POST", path + "/cancel", headers: ["Cookie": session],
                form: "formToken=\(token)&reason=customer+123.456.789-09")
            #expect(
                personal.status == 422 && personal.text.contains("role=\"alert\">reason must not hold personal data"),
                "\(personal.text)")
            #expect(!personal.text.contains("123.456.789-09"))
            #expect(try await h.eventTypes(id).contains("JourneyCancelled") == false, "no refused post cancelled it")

            let cancelled = try await h.stack.send(
                "POST", path + "/cancel", headers: ["Cookie": session, "Sec-Fetch-Site": "same-origin"],
                form: "formToken=\(token)&reason=duplicate+order")
            #expect(cancelled.status == 303 && cancelled.headers["location"] == path, "\(cancelled.text)")
            #expect(try await h.eventTypes(id).suffix(2) == ["JourneyCancelled", "JourneyAbandoned"])
            let after = try await h.send("GET", path, headers: ["Cookie": session])
            #expect(after.text.contains("<td>JourneyCancelled</td>") && !after.text.contains("id=\"cancel\""), "ended: no form")

            _ = try await TenantStore(client: h.database.app).create(name: "acme")
            let acme = try await keys.create(name: "acme", scopes: [.journeysWrite, .journeysRead], tenant: "acme").plaintext
            let second = try #require(try await h.start()["journeyId"] as? String)
            let foreign = try await h.stack.send(
                "POST", "/dashboard/journeys/\(second)/cancel", bearer: acme, form: "reason=mine")
            #expect(foreign.status == 404, "another tenant's journey cannot be cancelled")
            #expect(try await h.eventTypes(second).contains("JourneyCancelled") == false)
        }
    }

    @Test func signInRefusesCrossSitePostsAndTheCookieIsSecureBeyondLoopback() async throws {
        try await withJourneys { h in
            let reporter = h.stack.reporter
            for headers in [
                ["Sec-Fetch-Site": "cross-site"], ["Origin": "https://evil.example", "Host": "journeys.example"],
                ["Origin": "null", "Host": "journeys.example"],
            ] {
                let answer = try await h.stack.send("POST", "/dashboard/session", headers: headers, form: "apiKey=\(reporter)")
                #expect(answer.status == 403 && answer.headers["set-cookie"] == nil, "\(headers)")
            }
            for headers in [
                ["Sec-Fetch-Site": "same-origin"], ["Sec-Fetch-Site": "none"],
                ["Origin": "https://journeys.example", "Host": "journeys.example:443"], [:],
            ] {
                let answer = try await h.stack.send("POST", "/dashboard/session", headers: headers, form: "apiKey=\(reporter)")
                #expect(answer.status == 303, "\(headers)")
                #expect(answer.headers["set-cookie"]?.contains("Secure") == false, "a loopback server's cookie")
            }

            let routes = DashboardRoutes(
                reports: ReportsDatabase(client: h.database.app, isReplica: false),
                keys: APIKeyStore(client: h.database.app),
                sessions: h.stack.dependencies.sessionTokens, clock: Date.init, secureCookie: true)
            let request = HTTPRequest(
                method: .post, path: "/dashboard/session",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("apiKey=\(reporter)".utf8))
            let answer = try await routes.signIn(request)
            #expect(answer.status.code == 303)
            #expect(answer.headers["Set-Cookie"]?.hasSuffix("; Secure") == true, "beyond loopback the cookie is Secure")
        }
    }
}
