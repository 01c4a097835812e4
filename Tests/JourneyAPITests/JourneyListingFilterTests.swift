import AccessControl
import Foundation
@testable import JourneyAPI
import JourneyTesting
import Projections
import Testing

/// The listing's filters (issue 26 item 5): clientReference, status, environment and creation
/// range, combined, cursor-paginated, confined to the caller's tenant; a bad one is a 400 naming it.
@Suite(.serialized) struct JourneyListingFilterTests {
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

    private func ids(_ h: JourneyHarness, _ query: String, key: String? = nil) async throws -> [String] {
        let page = try await h.send("GET", "/v1/journeys?\(query)", bearer: key ?? h.reader)
        #expect(page.status == 200, "\(query): \(page.text)")
        return (page["items"] as? [[String: Any]] ?? []).compactMap { $0["journeyId"] as? String }
    }

    @Test func filtersCombineAndPage() async throws {
        try await withJourneys { h in
            let before = Date().addingTimeInterval(-60)
            let a1 = try await start(h, reference: "order-a")
            let b = try await start(h, reference: "order-b")
            let a2 = try await start(h, reference: "order-a")
            let cancel = try await h.send("POST", "/v1/journeys/\(a1)/cancel", bearer: h.writer, json: ["reason": "duplicate"])
            #expect(cancel.status == 200)
            _ = try await TenantStore(client: h.database.app).create(name: "acme")
            let acme = try await APIKeyStore(client: h.database.app).create(
                name: "acme", scopes: [.journeysWrite, .journeysRead],
                tenant: "acme"
            ).plaintext
            let acmeA = try await start(h, reference: "order-a", key: acme)
            _ = try await ProjectionRunner(client: h.database.owner, configuration: .init(listen: false)).catchUp()
            let format = ISO8601DateFormatter()
            let from = format.string(from: before), to = format.string(from: Date().addingTimeInterval(60))

            #expect(try await ids(h, "clientReference=order-a") == [a2, a1])
            #expect(try await ids(h, "clientReference=order-b") == [b])
            #expect(try await ids(h, "clientReference=order-a", key: acme) == [acmeA], "the other tenant's order-a only")
            #expect(try await ids(h, "status=abandoned") == [a1])
            #expect(try await ids(h, "state=abandoned&status=abandoned") == [a1])
            #expect(try await ids(h, "clientReference=order-a&status=started") == [a2])
            #expect(try await ids(h, "clientReference=order-a&environment=PROD").isEmpty)
            #expect(try await ids(h, "createdFrom=\(from)&createdTo=\(to)") == [a2, b, a1])
            #expect(try await ids(h, "createdFrom=\(to)").isEmpty)
            #expect(try await ids(h, "createdTo=\(from)").isEmpty)

            // Pages of one filter: no gaps, no repeats.
            let first = try await h.send("GET", "/v1/journeys?clientReference=order-a&limit=1", bearer: h.reader)
            let cursor = try #require(first["nextCursor"] as? String)
            #expect((first["items"] as? [[String: Any]])?.first?["journeyId"] as? String == a2)
            #expect(try await ids(h, "clientReference=order-a&limit=1&cursor=\(cursor)") == [a1])
        }
    }

    @Test func badFiltersAnswer400NamingTheParameter() async throws {
        try await withJourneys { h in
            let cases: [(String, String)] = [
                ("clientReference=" + String(repeating: "x", count: 129), "clientReference"),
                ("clientReference=", "clientReference"),
                ("status=cancelled", "status"),
                ("status=abandoned&state=started", "status"),
                ("state=nope", "state"),
                ("createdFrom=yesterday", "createdFrom"),
                ("createdTo=2026-13-01T00:00:00Z", "createdTo"),
                ("createdFrom=2026-11-02T00:00:00Z&createdTo=2026-11-01T00:00:00Z", "createdTo"),
                ("createdFrom=2026-11-01T00:00:00Z&createdTo=2026-11-01T00:00:00Z", "createdTo"),
            ]
            for (query, field) in cases {
                let answer = try await h.send("GET", "/v1/journeys?\(query)", bearer: h.reader)
                #expect(answer.status == 400, "\(query): \(answer.text)")
                #expect(answer.code == "invalid_query", "\(query)")
                #expect(answer.field == field, "\(query): \(answer.text)")
                #expect(answer["parameter"] as? String == field, "\(query)")
                #expect(answer.headers["content-type"]?.hasPrefix("application/problem+json") == true)
            }
            let unauthenticated = try await h.send("GET", "/v1/journeys?clientReference=order-a")
            #expect(unauthenticated.status == 401)
        }
    }
}
