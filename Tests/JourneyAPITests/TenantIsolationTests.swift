import AccessControl
import EventStore
import Foundation
import JourneyEngine
import HumanTokenAPI
@testable import JourneyAPI
import JourneyTesting
import Postgres
import Projections
import Testing

/// Tenants (issue 13 item 6): every read route is confined to the caller's tenant; another
/// tenant's journey is a 404 `journey_not_found`, never a 403; lists and reports count only the
/// caller's journeys; journeys written before tenants belong to `default`.
@Suite(.serialized) struct TenantIsolationTests {
    /// Two tenants, each with one key holding every reading and writing scope, and their journeys
    /// (same person, same document, in both).
    struct Tenants {
        var keys: [String: String]
        var journeys: [String: [String]]
    }

    static let scopes: [Scope] = [.journeysWrite, .journeysRead, .reportsRead, .subjectsAdmin, .humanTokenRead]

    private func setUp(_ h: JourneyHarness) async throws -> Tenants {
        _ = try await TenantStore(client: h.database.app).create(name: "acme")
        let keys = APIKeyStore(client: h.database.app)
        var tenants = Tenants(keys: [:], journeys: [:])
        for (tenant, count) in [("default", 2), ("acme", 1)] {
            tenants.keys[tenant] = try await keys.create(name: "\(tenant) backend", scopes: Self.scopes, tenant: tenant).plaintext
            for _ in 0..<count {
                let answer = try await h.send(
                    "POST", "/v1/journeys", bearer: tenants.keys[tenant], json: JourneyHarness.startBody())
                #expect(answer.status == 201, "\(answer.text)")
                tenants.journeys[tenant, default: []].append(try #require(answer["journeyId"] as? String))
            }
        }
        _ = try await ProjectionRunner(client: h.database.owner, configuration: .init(listen: false)).catchUp()
        return tenants
    }

    /// Every route that names a journey, with a key of each tenant on each tenant's journey.
    @Test func everyJourneyRouteAnswers404ForAnotherTenantsJourney() async throws {
        try await withJourneys { h in
            let t = try await setUp(h)
            let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
            let routes: [(name: String, method: String, path: (String) -> String)] = [
                ("journey", "GET", { "/v1/journeys/\($0)" }),
                ("journey as of", "GET", { "/v1/journeys/\($0)?asOf=\(later)" }),
                ("journey as of before it began", "GET", { "/v1/journeys/\($0)?asOf=2020-01-01T00:00:00Z" }),
                ("events", "GET", { "/v1/journeys/\($0)/events" }),
                ("human token", "GET", { "/v1/journeys/\($0)/human-token" }),
                ("token", "POST", { "/v1/journeys/\($0)/token" }),
                ("client token", "POST", { "/v1/journeys/\($0)/client-token" }),
            ]
            for route in routes {
                for caller in ["default", "acme"] {
                    for owner in ["default", "acme"] {
                        let id = try #require(t.journeys[owner]?.first)
                        let answer = try await h.send(route.method, route.path(id), bearer: t.keys[caller], headers: h.purpose)
                        let label = "\(route.name): \(caller)'s key on \(owner)'s journey → \(answer.status) \(answer.code ?? "")"
                        if caller == owner {
                            #expect(answer.status != 403, "\(label)")
                            if route.name != "journey as of before it began" {
                                #expect(answer.code != "journey_not_found", "\(label)")
                            }
                        } else {
                            #expect(answer.status == 404, "\(label)")
                            #expect(answer.code == "journey_not_found", "\(label)")
                            #expect(answer["field"] == nil, "says nothing about the journey: \(label)")
                        }
                    }
                }
            }
        }
    }

    @Test func listsReportsTheDashboardAndSubjectsCountOnlyTheCallersTenant() async throws {
        try await withJourneys { h in
            let t = try await setUp(h)
            let day = DateFormatter()
            day.dateFormat = "yyyy-MM-dd"
            day.timeZone = TimeZone(identifier: "UTC")
            day.locale = Locale(identifier: "en_US_POSIX")
            let window =
                "from=\(day.string(from: Date().addingTimeInterval(-86_400)))&to=\(day.string(from: Date().addingTimeInterval(86_400)))"
            var references: [String: String] = [:]
            for tenant in ["default", "acme"] {
                let key = t.keys[tenant]
                let own = Set(t.journeys[tenant] ?? [])

                let listed = try await h.send("GET", "/v1/journeys", bearer: key)
                #expect(listed.status == 200)
                let items = try #require(listed["items"] as? [[String: Any]])
                #expect(Set(items.compactMap { $0["journeyId"] as? String }) == own, "\(tenant)'s listing")

                let funnel = try await h.send("GET", "/v1/reports/funnel?\(window)", bearer: key)
                #expect(funnel.status == 200, "\(funnel.text)")
                let steps = try #require((funnel["result"] as? [String: Any])?["steps"] as? [[String: Any]])
                #expect(steps.first?["journeys"] as? Int == own.count, "\(tenant)'s funnel counts its own journeys")
                let volume = try await h.send("GET", "/v1/reports/volume?\(window)", bearer: key)
                #expect(
                    volume.status == 200 && !volume.text.contains(t.journeys[tenant == "acme" ? "default" : "acme"]?.first ?? "-")
                )

                let dashboard = try await h.send("GET", "/dashboard?\(window)", bearer: key)
                #expect(dashboard.status == 200)
                let started = try #require(dashboard.text.firstMatch(of: /started<\/text><rect[^>]*\/><text[^>]*>(\d+)<\/text>/))
                #expect(Int(started.1) == own.count, "\(tenant)'s dashboard funnel")

                let found = try await h.send("GET", "/v1/subjects?document=12345678909", bearer: key)
                #expect(found.status == 200, "\(found.text)")
                #expect(Set(found["journeyIds"] as? [String] ?? []) == own, "\(tenant)'s subject has only its journeys")
                references[tenant] = try #require(found["subjectReference"] as? String)
            }
            #expect(references["default"] != references["acme"], "one person is a subject per tenant")

            // Another tenant's subject reference is unknown: as a listing filter, an export, an erasure.
            let acmeReference = try #require(references["acme"])
            let filtered = try await h.send("GET", "/v1/journeys?subject=\(acmeReference)", bearer: t.keys["default"])
            #expect((filtered["items"] as? [Any])?.isEmpty == true)
            let history = try await h.send(
                "GET", "/v1/reports/subject-history?\(window)&subject=\(acmeReference)",
                bearer: t.keys["default"])
            #expect(((history["result"] as? [String: Any])?["journeys"] as? [Any])?.isEmpty == true)
            for (method, path) in [("GET", "/v1/subjects/\(acmeReference)/export"), ("DELETE", "/v1/subjects/\(acmeReference)")] {
                let answer = try await h.send(method, path, bearer: t.keys["default"], headers: h.purpose)
                #expect(answer.status == 404, "\(method) \(path) with the default tenant's key")
                #expect(answer.code == "unknown_subject")
            }
            let export = try await h.send(
                "GET", "/v1/subjects/\(acmeReference)/export", bearer: t.keys["acme"],
                headers: h.purpose)
            #expect(export.status == 200)
            #expect(export["erased"] as? Bool == false, "the other tenant's attempt erased nothing")
            #expect((export["journeys"] as? [Any])?.count == 1)
        }
    }

    @Test func journeysStartedBeforeTenantsBelongToTheDefaultTenant() async throws {
        try await withJourneys { h in
            let t = try await setUp(h)
            // The start records its tenant; an event of before tenants has none.
            let acmeID = try #require(t.journeys["acme"]?.first)
            let defaultID = try #require(t.journeys["default"]?.first)
            let store = EventStore(client: h.database.app)
            let acmeStart = try #require(try await store.readStream(StreamName("journey-\(acmeID)")).first)
            #expect(try acmeStart.data.decode([String: JSONValueProbe].self)["tenant"] == .string("acme"))
            let start = try #require(try await store.readStream(StreamName("journey-\(defaultID)")).first)
            var data = try #require(try JSONSerialization.jsonObject(with: Data(start.data.text.utf8)) as? [String: Any])
            let oldID = UUID().uuidString.lowercased()
            data["tenant"] = nil
            data["journeyID"] = oldID
            let text = String(decoding: try JSONSerialization.data(withJSONObject: data), as: UTF8.self)
            _ = try await store.append(
                [NewEvent(type: "JourneyStarted", data: JSONB(text: text))],
                to: StreamName("journey-\(oldID)"), expectedVersion: .noStream)
            _ = try await ProjectionRunner(client: h.database.owner, configuration: .init(listen: false)).catchUp()

            #expect(try await h.send("GET", "/v1/journeys/\(oldID)", bearer: t.keys["default"]).status == 200)
            #expect(try await h.send("GET", "/v1/journeys/\(oldID)", bearer: t.keys["acme"]).status == 404)
            let listed = try await h.send("GET", "/v1/journeys", bearer: t.keys["default"])
            #expect((listed["items"] as? [[String: Any]])?.contains { $0["journeyId"] as? String == oldID } == true)
            let tenant = try await h.database.owner.query("SELECT tenant FROM journey_state WHERE journey_id = \(oldID)")
            #expect(try tenant.first?.decode(0, as: String.self) == "default")
            let found = try await h.send("GET", "/v1/subjects?document=12345678909", bearer: t.keys["default"])
            #expect((found["journeyIds"] as? [String])?.contains(oldID) == true)

            // A key made before tenants (no tenant column given) belongs to the default tenant.
            let principal = try await APIKeyStore(client: h.database.app).authenticate(authorizationHeader: "Bearer \(h.writer)")
            #expect(principal.tenant == "default")
        }
    }

    /// A tenant with Unico settings of its own creates its processes with them; a tenant without
    /// uses the deployment's. Here acme's own settings point at a closed port: its start fails
    /// on Unico, while `default` and `globex` (no settings) start on the deployment's emulator.
    @Test func aTenantsOwnUnicoSettingsCreateItsProcesses() async throws {
        try await withJourneys { h in
            var dependencies = h.stack.dependencies
            var unreachable = h.stack.unicoConfiguration
            unreachable.apiHost = URL(string: "http://127.0.0.1:9")!
            unreachable.tokenHost = URL(string: "http://127.0.0.1:9")!
            dependencies.engine.tenantUnico = ["acme": [.uat: try HumanTokenAPIClient(configuration: unreachable)]]
            let service = APIServer(
                configuration: .init(), journeys: Journeys(database: h.database.app, dependencies: dependencies.engine),
                keys: APIKeyStore(client: h.database.app), dependencies: dependencies)
            let client = TestClient(router: service.router)
            let tenants = TenantStore(client: h.database.app)
            let keys = APIKeyStore(client: h.database.app)
            for (tenant, created) in [("default", true), ("acme", false), ("globex", true)] {
                if tenant != "default" { _ = try await tenants.create(name: tenant) }
                let key = try await keys.create(name: tenant, scopes: [.journeysWrite], tenant: tenant).plaintext
                let answer = try await client.send("POST", "/v1/journeys", bearer: key, json: JourneyHarness.startBody())
                #expect((answer.status == 201) == created, "\(tenant): \(answer.status) \(answer.text)")
                if !created { #expect(answer.code?.hasPrefix("unico_") == true, "\(tenant): \(answer.text)") }
            }
        }
    }
}

/// A JSON value compared by its string form (enough to read `tenant`).
enum JSONValueProbe: Decodable, Equatable {
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        self = (try? decoder.singleValueContainer().decode(String.self)).map(JSONValueProbe.string) ?? .other
    }
}
