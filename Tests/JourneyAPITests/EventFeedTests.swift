import AccessControl
import Foundation
@testable import JourneyAPI
import JourneyTesting
import Testing

/// `GET /v1/events` (issue 26 item 5): the tenant's own journey steps as their webhooks would carry
/// them, no personal data, paged by log position; scopes and bad input answer 4xx naming the field.
@Suite(.serialized) struct EventFeedTests {
    struct Tenants {
        var acme: String
        var defaultIDs: [String]
        var acmeID: String
    }

    private func setUp(_ h: JourneyHarness) async throws -> Tenants {
        var ids: [String] = []
        for _ in 0..<2 {
            let started = try await h.send(
                "POST", "/v1/journeys", bearer: h.writer,
                json: JourneyHarness.startBody { $0["createProcess"] = nil })
            #expect(started.status == 201, "\(started.text)")
            ids.append(try #require(started["journeyId"] as? String))
        }
        let cancelled = try await h.send("POST", "/v1/journeys/\(ids[0])/cancel", bearer: h.writer, json: ["reason": "duplicate"])
        #expect(cancelled.status == 200)
        _ = try await TenantStore(client: h.database.app).create(name: "acme")
        let acme = try await APIKeyStore(client: h.database.app).create(
            name: "acme", scopes: [.journeysWrite, .journeysRead],
            tenant: "acme"
        ).plaintext
        let started = try await h.send(
            "POST", "/v1/journeys", bearer: acme, json: JourneyHarness.startBody { $0["createProcess"] = nil })
        return Tenants(acme: acme, defaultIDs: ids, acmeID: try #require(started["journeyId"] as? String))
    }

    /// Every item after position 0, page by page, once there are `count` items.
    private func all(_ h: JourneyHarness, key: String, query: String = "", count: Int) async throws -> [[String: Any]] {
        try await waitFor("\(count) items in the event feed") {
            var items: [[String: Any]] = []
            var after: Int64 = 0
            var pages = 0
            while pages < 50 {
                let page = try await h.send("GET", "/v1/events?after=\(after)\(query)", bearer: key)
                #expect(page.status == 200, "\(page.text)")
                items += page["items"] as? [[String: Any]] ?? []
                after = (page["nextAfter"] as? NSNumber)?.int64Value ?? after
                pages += 1
                if page["hasMore"] as? Bool != true { break }
            }
            return items.count >= count ? items : nil
        }
    }

    @Test func eachTenantPullsOnlyItsOwnStepsWithoutPersonalData() async throws {
        try await withJourneys { h in
            let t = try await setUp(h)
            let items = try await all(h, key: h.reader, count: 3)
            #expect(items.map { $0["type"] as? String } == ["journey.started", "journey.started", "journey.abandoned"])
            #expect(Set(items.compactMap { ($0["data"] as? [String: Any])?["journeyId"] as? String }) == Set(t.defaultIDs))
            let abandoned = try #require(items.last?["data"] as? [String: Any])
            #expect(abandoned["journeyId"] as? String == t.defaultIDs[0])
            #expect((abandoned["reason"] as? [String: Any])?["kind"] as? String == "cancelled")
            #expect(abandoned["clientReference"] as? String == "order-42")
            #expect(abandoned["environment"] as? String == "UAT")
            for item in items {
                #expect((item["id"] as? String)?.hasPrefix("msg_") == true)
                #expect(item["position"] is NSNumber && item["timestamp"] is String)
            }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: items), as: UTF8.self)
            for secret in ["12345678909", "Maria", "ciphertext", "webAppToken", "humanToken"] {
                #expect(!text.contains(secret), "no \(secret) in the feed")
            }

            let acme = try await all(h, key: t.acme, count: 1)
            #expect(acme.count == 1)
            #expect((acme.first?["data"] as? [String: Any])?["journeyId"] as? String == t.acmeID)

            let onlyEndings = try await all(h, key: h.reader, query: "&types=journey.abandoned,journey.completed", count: 1)
            #expect(onlyEndings.map { $0["type"] as? String } == ["journey.abandoned"])

            // One at a time: the same items; after the last, an empty page that keeps the cursor.
            let single = try await all(h, key: h.reader, query: "&limit=1", count: 3)
            #expect(single.map { $0["id"] as? String } == items.map { $0["id"] as? String })
            let last = try #require((items.last?["position"] as? NSNumber)?.int64Value)
            let tail = try await h.send("GET", "/v1/events?after=\(last)", bearer: h.reader)
            #expect((tail["items"] as? [Any])?.isEmpty == true, "\(tail.text)")
            #expect(tail["hasMore"] as? Bool == false)
            #expect(((tail["nextAfter"] as? NSNumber)?.int64Value ?? 0) >= last)
        }
    }

    @Test func scopesAndBadInput() async throws {
        try await withJourneys { h in
            let anonymous = try await h.send("GET", "/v1/events")
            #expect(anonymous.status == 401)
            let reports = try await APIKeyStore(client: h.database.app).create(name: "reports", scopes: [.reportsRead]).plaintext
            let forbidden = try await h.send("GET", "/v1/events", bearer: reports)
            #expect(forbidden.status == 403 && forbidden["scope"] as? String == "journeys:read", "\(forbidden.text)")
            let cases: [(String, String)] = [
                ("after=-1", "after"), ("after=abc", "after"), ("after=999999999999", "after"),
                ("types=journey.teleported", "types"), ("types=", "types"),
                ("limit=0", "limit"), ("limit=\(EventFeed.maximumLimit + 1)", "limit"), ("limit=x", "limit"),
            ]
            for (query, field) in cases {
                let answer = try await h.send("GET", "/v1/events?\(query)", bearer: h.reader)
                #expect(answer.status == 400, "\(query): \(answer.text)")
                #expect(answer.code == "invalid_query" && answer.field == field, "\(query): \(answer.text)")
            }
        }
    }
}
