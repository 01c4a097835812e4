import AccessControl
import EmbeddedPostgres
import Foundation
import JourneyApp
import JourneyCommands
import JourneyTesting
import Migrations
import Postgres
import Projections
import Testing
import UnicoEmulator

/// `REPORTS_DATABASE_URL` on a real streaming hot standby (`pg_basebackup -R` from a primary of
/// the test's own, so stopping that primary disturbs no other test).
@Suite struct ReplicaTests {
    static var subject: [String: Any] {
        [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza"],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
        ]
    }

    @Test func reportsRunOnTheStandbyKeepAnsweringWithoutThePrimaryAndAGoneStandbyIsA503() async throws {
        let root = NSTemporaryDirectory() + "journeys-replica-\(getpid())-\(UUID().uuidString.prefix(6))"
        let primary = EmbeddedPostgres(.init(directory: root + "/primary", database: "journeys", durable: false))
        defer {
            try? primary.stop()
            try? FileManager.default.removeItem(atPath: root)
        }
        let status = try primary.start()
        let owner = try PostgresClient(url: status.ownerURL, configuration: .init(maxConnections: 2))
        try await Migrator().migrate(owner)
        let standby = try EmbeddedStandby.start(from: primary, status: status, directory: root + "/standby")
        defer { try? standby.stop() }
        let standbyStatus = try standby.status()
        let app = try PostgresClient(url: status.appURL, configuration: .init(maxConnections: 8, acquireTimeout: 5))
        let reports = try PostgresClient(url: standbyStatus.appURL, configuration: .init(maxConnections: 2, acquireTimeout: 3))
        defer { app.close(); owner.close(); reports.close() }

        var configuration = LocalStack.Configuration(clock: SystemEmulatorClock())
        configuration.serviceClock = Date.init
        configuration.port = nil
        configuration.reports = reports
        configuration.reportsMaxLag = 1
        configuration.metricsGaugeLifetime = .zero
        let stack = try await LocalStack.start(app: app, configuration: configuration)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let (from, to) = (
            formatter.string(from: Date().addingTimeInterval(-86_400)), formatter.string(from: Date().addingTimeInterval(86_400))
        )
        let client = TestClient(router: stack.service.router)
        let reporter = try await APIKeyStore(client: app).create(name: "reporter", scopes: [.reportsRead]).plaintext
        do {
            var ids: [String] = []
            for _ in 0..<3 {
                let started = try await client.send("POST", "/v1/journeys", bearer: stack.apiKey, json: Self.subject)
                #expect(started.status == 201)
                ids.append(try #require(started["journeyId"] as? String))
            }
            try await ProjectionRunner(client: owner, configuration: .init(listen: false)).catchUp()

            // The standby replays the primary's writes; the listing and the reports read there.
            try await waitUntil("the standby lists the three journeys") {
                let page = try await client.send("GET", "/v1/journeys?limit=10", bearer: stack.apiKey)
                return (page["items"] as? [[String: Any]])?.count == 3
            }
            let onStandby = try await reports.standbyLag()
            #expect(onStandby.isStandby)
            let funnel = try await client.send("GET", "/v1/reports/funnel?from=\(from)&to=\(to)", bearer: reporter)
            #expect(funnel.status == 200)
            #expect(String(decoding: funnel.body, as: UTF8.self).contains("3"))
            _ = try await client.send("GET", "/metrics")
            let metrics = stack.service.metrics.render()
            #expect(metrics.contains("journeys_reports_replica_up 1"))
            #expect(metrics.contains("journeys_reports_replica_lag_seconds "))

            // Replay paused on the standby while the primary writes: past REPORTS_MAX_LAG (here
            // 1 s) reports are a clear 503 `reports_lagging`; resumed, they answer again.
            let standbySuper = try PostgresClient(
                url: standbyStatus.url(user: "postgres", database: standbyStatus.database),
                configuration: .init(maxConnections: 1))
            defer { standbySuper.close() }
            _ = try await standbySuper.query("SELECT pg_wal_replay_pause()")
            let behind = try await client.send("POST", "/v1/journeys", bearer: stack.apiKey, json: Self.subject)
            #expect(behind.status == 201)
            let lagging = try await waitFor("reports answer 503 past REPORTS_MAX_LAG") {
                let answer = try await client.send("GET", "/v1/reports/funnel?from=\(from)&to=\(to)", bearer: reporter)
                return answer.status == 503 ? answer : nil
            }
            #expect(lagging.code == "reports_lagging")
            #expect(lagging.headers["retry-after"] == "5")
            #expect(lagging.text.contains("REPORTS_MAX_LAG"))
            #expect(try await client.send("POST", "/v1/journeys", bearer: stack.apiKey, json: Self.subject).status == 201)
            _ = try await standbySuper.query("SELECT pg_wal_replay_resume()")
            try await waitUntil("reports answer again once replay resumed") {
                try await client.send("GET", "/v1/reports/funnel?from=\(from)&to=\(to)", bearer: reporter).status == 200
            }

            // The primary down: `journeys report` and `audit show` need only the standby.
            try primary.stop()
            let variables = ["DATABASE_URL": status.appURL, "REPORTS_DATABASE_URL": standbyStatus.appURL]
            let report = await JourneysCommand.run(
                ["report", "funnel", "--from", from, "--to", to, "--format", "json"], variables: variables)
            #expect(report.code == 0, "\(report.error)")
            #expect(report.output.contains("funnel"))
            let shown = await JourneysCommand.run(["audit", "show", ids[0], "--format", "json"], variables: variables)
            #expect(shown.code == 0, "\(shown.error)")
            #expect(shown.output.contains(ids[0]))

            // The standby gone, the primary back: reports are a clear 503, writes go on.
            _ = try primary.start()
            try standby.stop()
            let gone = try await client.send("GET", "/v1/reports/funnel?from=\(from)&to=\(to)", bearer: reporter)
            #expect(gone.status == 503)
            #expect(gone.code == "reports_unavailable")
            let listing = try await client.send("GET", "/v1/journeys", bearer: stack.apiKey)
            #expect(listing.status == 503)
            #expect(listing.code == "reports_unavailable")
            let write = try await client.send("POST", "/v1/journeys", bearer: stack.apiKey, json: Self.subject)
            #expect(write.status == 201)
            _ = try await client.send("GET", "/metrics")
            #expect(stack.service.metrics.render().contains("journeys_reports_replica_up 0"))
        } catch {
            await stack.stop()
            throw error
        }
        await stack.stop()
    }

    @Test func aBadReportsURLIsAnErrorNamingTheVariable() async throws {
        let result = await JourneysCommand.run(
            ["report", "funnel", "--from", "2026-01-01", "--to", "2026-01-31"],
            variables: ["REPORTS_DATABASE_URL": "postgresql://x:y@[bad"])
        #expect(result.code != 0)
        #expect(result.error.contains("REPORTS_DATABASE_URL"))
        #expect(!result.error.contains("x:y"))
    }
}
