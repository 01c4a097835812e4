import AccessControl
import Foundation
import JourneyTesting
import Postgres
import Testing

/// `/v1/webhook-endpoints` and `/v1/webhook-deliveries` (issue 26 item 5): scope `webhooks:admin`,
/// the tenant's endpoints only, secrets shown once, bad input 4xx naming the field, deliveries
/// paged by cursor and resent.
@Suite(.serialized) struct WebhookEndpointRoutesTests {
    struct Keys {
        var admin: String
        var worker: APIKey
        var acmeAdmin: String
        var acmeKey: APIKey
    }

    private func keys(_ h: JourneyHarness) async throws -> Keys {
        let store = APIKeyStore(client: h.database.app)
        let admin = try await store.create(name: "hooks-admin", scopes: [.webhooksAdmin]).plaintext
        let worker = try await store.create(name: "backend", scopes: [.journeysWrite]).key
        _ = try await TenantStore(client: h.database.app).create(name: "acme")
        let acmeAdmin = try await store.create(name: "acme-hooks", scopes: [.webhooksAdmin], tenant: "acme").plaintext
        let acmeKey = try await store.create(name: "acme-backend", scopes: [.journeysWrite], tenant: "acme").key
        return Keys(admin: admin, worker: worker, acmeAdmin: acmeAdmin, acmeKey: acmeKey)
    }

    @Test func scopeTenantAndSecretShownOnce() async throws {
        try await withJourneys { h in
            let k = try await keys(h)
            #expect(try await h.send("GET", "/v1/webhook-endpoints", bearer: h.writer).status == 403)
            #expect(try await h.send("GET", "/v1/webhook-endpoints").status == 401)
            #expect(try Scope.parse("webhooks:admin") == .webhooksAdmin)

            let created = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.admin,
                json: [
                    "url": "https://hooks.example.com/journeys", "eventTypes": ["journey.completed"],
                    "apiKeyId": k.worker.id.uuidString,
                ])
            #expect(created.status == 201, "\(created.text)")
            #expect((created["secret"] as? String)?.hasPrefix("whsec_") == true)
            #expect(created["apiKeyId"] as? String == k.worker.id.uuidString.lowercased())
            #expect(created["status"] as? String == "enabled")
            #expect(created["eventTypes"] as? [String] == ["journey.completed"])
            #expect(created.headers.first { $0.key.lowercased() == "cache-control" }?.value.contains("no-store") == true)
            let id = try #require(created["id"] as? String)
            let secret = try #require(created["secret"] as? String)

            let own = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.admin, json: ["url": "https://hooks.example.com/all"])
            #expect(own.status == 201 && own["eventTypes"] == nil, "absent eventTypes: every type")

            let list = try await h.send("GET", "/v1/webhook-endpoints", bearer: k.admin)
            #expect(list.status == 200)
            #expect((list["items"] as? [[String: Any]])?.count == 2)
            #expect(!list.text.contains(secret) && !list.text.contains("whsec_"), "the secret is never shown again")
            let one = try await h.send("GET", "/v1/webhook-endpoints/\(id)", bearer: k.admin)
            #expect(one.status == 200 && one["secret"] == nil && one["url"] as? String == "https://hooks.example.com/journeys")

            // Another tenant sees none of it, and cannot register for this tenant's key.
            let acmeList = try await h.send("GET", "/v1/webhook-endpoints", bearer: k.acmeAdmin)
            #expect((acmeList["items"] as? [Any])?.isEmpty == true)
            let foreign = try await h.send("GET", "/v1/webhook-endpoints/\(id)", bearer: k.acmeAdmin)
            #expect(foreign.status == 404 && foreign.code == "endpoint_not_found")
            #expect(try await h.send("POST", "/v1/webhook-endpoints/\(id)/disable", bearer: k.acmeAdmin).status == 404)
            let stolen = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.acmeAdmin,
                json: [
                    "url": "https://hooks.example.com/x", "apiKeyId": k.worker.id.uuidString,
                ])
            #expect(stolen.status == 422 && stolen.code == "key_not_found" && stolen.field == "apiKeyId")
            let acmeOwn = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.acmeAdmin,
                json: [
                    "url": "https://hooks.acme.example/x", "apiKeyId": k.acmeKey.id.uuidString,
                ])
            #expect(acmeOwn.status == 201)
            #expect((try await h.send("GET", "/v1/webhook-endpoints", bearer: k.admin)["items"] as? [Any])?.count == 2)
        }
    }

    @Test func badInputNamesTheField() async throws {
        try await withJourneys { h in
            let k = try await keys(h)
            func create(_ body: Any) async throws -> TestResponse {
                try await h.send("POST", "/v1/webhook-endpoints", bearer: k.admin, json: body)
            }
            var answer = try await create(["eventTypes": ["journey.completed"]])
            #expect(answer.status == 400 && answer.code == "validation_failed" && answer.field == "url")
            answer = try await create(["url": "https://hooks.example.com/x", "eventTypes": ["journey.nope"]])
            #expect(answer.status == 400 && answer.field == "eventTypes")
            answer = try await create(["url": "https://hooks.example.com/x", "eventTypes": []])
            #expect(answer.status == 400 && answer.field == "eventTypes")
            answer = try await create(["url": "https://hooks.example.com/x", "apiKeyId": "abc"])
            #expect(answer.status == 400 && answer.field == "apiKeyId")
            answer = try await create(["url": "http://hooks.example.com/x"])
            #expect(answer.status == 422 && answer.code == "validation_failed" && answer.field == "url")
            for refused in ["https://10.1.2.3/x", "https://169.254.169.254/x", "https://192.0.2.10/x", "https://[2001:db8::1]/x"]
            {
                answer = try await create(["url": refused])
                #expect(answer.status == 422 && answer.code == "destination_refused" && answer.field == "url", "\(refused)")
            }
            answer = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.admin, headers: ["Content-Type": "application/json"])
            #expect(answer.status == 400 && answer.code == "invalid_json")
            answer = try await h.send("GET", "/v1/webhook-endpoints/not-a-uuid", bearer: k.admin)
            #expect(answer.status == 400 && answer.field == "id")
            let created = try await create(["url": "https://hooks.example.com/x"])
            let id = try #require(created["id"] as? String)
            answer = try await h.send("GET", "/v1/webhook-endpoints/\(id)/deliveries?cursor=bad", bearer: k.admin)
            #expect(answer.status == 400 && answer.field == "cursor")
            answer = try await h.send("GET", "/v1/webhook-endpoints/\(id)/deliveries?limit=0", bearer: k.admin)
            #expect(answer.status == 400 && answer.field == "limit")
            answer = try await h.send("POST", "/v1/webhook-endpoints/\(id)/disable", bearer: k.admin, json: ["reason": 7])
            #expect(answer.status == 400 && answer.field == "reason")
        }
    }

    @Test func disableEnableDeliveriesByCursorAndResend() async throws {
        try await withJourneys { h in
            let k = try await keys(h)
            let created = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.admin,
                json: [
                    "url": "https://hooks.example.com/x", "apiKeyId": k.worker.id.uuidString,
                ])
            let id = try #require(created["id"] as? String)
            let endpointID = try #require(UUID(uuidString: id))

            let disabled = try await h.send(
                "POST", "/v1/webhook-endpoints/\(id)/disable", bearer: k.admin,
                json: ["reason": "receiver migrating"])
            #expect(disabled.status == 200 && disabled["status"] as? String == "disabled")
            #expect(disabled["disabledReason"] as? String == "receiver migrating")
            let enabled = try await h.send("POST", "/v1/webhook-endpoints/\(id)/enable", bearer: k.admin)
            #expect(enabled.status == 200 && enabled["status"] as? String == "enabled" && enabled["disabledReason"] == nil)

            // Three deliveries, one second apart; the oldest already delivered.
            let start = Date()
            for index in 0..<3 {
                let at = start.addingTimeInterval(Double(index))
                _ = try await h.database.owner.query(
                    """
                    INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event_type, payload, created_at, next_attempt_at)
                    VALUES (\(UUID()), \(endpointID), \("msg_\(index)"), 'journey.completed', '{"journeyId": "j"}', \(at), \(at))
                    """)
            }
            _ = try await h.database.owner.query(
                """
                UPDATE webhook_deliveries SET next_attempt_at = NULL, delivered_at = now(), last_status = 200, attempt_count = 1
                WHERE message_id = 'msg_0'
                """)
            let first = try await h.send("GET", "/v1/webhook-endpoints/\(id)/deliveries?limit=2", bearer: k.admin)
            #expect(first.status == 200, "\(first.text)")
            let firstItems = try #require(first["items"] as? [[String: Any]])
            #expect(firstItems.map { $0["messageId"] as? String } == ["msg_2", "msg_1"])
            #expect(firstItems.allSatisfy { $0["status"] as? String == "pending" && $0["payload"] == nil })
            let cursor = try #require(first["nextCursor"] as? String)
            let second = try await h.send(
                "GET", "/v1/webhook-endpoints/\(id)/deliveries?limit=2&cursor=\(cursor)", bearer: k.admin)
            let secondItems = try #require(second["items"] as? [[String: Any]])
            #expect(secondItems.map { $0["messageId"] as? String } == ["msg_0"] && second["nextCursor"] == nil)
            #expect(secondItems.first?["status"] as? String == "delivered")

            let pendingID = try #require(firstItems.first?["id"] as? String)
            let pending = try await h.send("POST", "/v1/webhook-deliveries/\(pendingID)/resend", bearer: k.admin)
            #expect(pending.status == 409 && pending.code == "delivery_pending")
            let deliveredID = try #require(secondItems.first?["id"] as? String)
            #expect(try await h.send("POST", "/v1/webhook-deliveries/\(deliveredID)/resend", bearer: k.acmeAdmin).status == 404)
            let resent = try await h.send("POST", "/v1/webhook-deliveries/\(deliveredID)/resend", bearer: k.admin)
            #expect(resent.status == 201, "\(resent.text)")
            #expect(resent["messageId"] as? String == "msg_0" && resent["status"] as? String == "pending")
            #expect(resent["resendOf"] as? String == deliveredID)
            #expect(
                try await h.send("POST", "/v1/webhook-deliveries/\(UUID())/resend", bearer: k.admin).code == "delivery_not_found")

            // A revoked key's endpoint cannot be enabled again.
            _ = try await APIKeyStore(client: h.database.app).revoke(k.worker.id.uuidString)
            _ = try await h.send("POST", "/v1/webhook-endpoints/\(id)/disable", bearer: k.admin)
            let refused = try await h.send("POST", "/v1/webhook-endpoints/\(id)/enable", bearer: k.admin)
            #expect(refused.status == 409 && refused.code == "key_revoked")
            let shown = try await h.send("GET", "/v1/webhook-endpoints/\(id)", bearer: k.admin)
            #expect(shown["apiKeyRevoked"] as? Bool == true)
            let onRevoked = try await h.send(
                "POST", "/v1/webhook-endpoints", bearer: k.admin,
                json: [
                    "url": "https://hooks.example.com/y", "apiKeyId": k.worker.id.uuidString,
                ])
            #expect(onRevoked.status == 409 && onRevoked.code == "key_revoked")
        }
    }
}
