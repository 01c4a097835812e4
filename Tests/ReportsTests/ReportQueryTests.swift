import Foundation
import JourneyDomain
import JourneyTesting
import Migrations
import Postgres
import Projections
@testable import Reports
import Testing

/// Each report against the hand-built history of ``Fixture`` (events appended through the
/// repository, then projected), read as the application role.
@Suite(.serialized) struct ReportQueryTests {
    @Test func funnelCountsJourneysReachingEachStep() async throws {
        try await withFixture { db, _ in
            let report = try await FunnelReport.run(Fixture.parameters(), on: db.app)
            #expect(
                report.steps.map(\.step) == [
                    "started", "token issued", "capture opened", "callback", "result fetched", "approved",
                ])
            #expect(report.steps.map(\.journeys) == [10, 10, 8, 6, 5, 4])
            #expect(report.steps.map(\.fromPrevious) == [nil, 1.0, 0.8, 0.75, 5.0 / 6.0, 0.8])
            #expect(report.steps.map(\.fromStart) == [1.0, 1.0, 0.8, 0.6, 0.5, 0.4])

            let prod = try await FunnelReport.run(Fixture.parameters(environment: .prod), on: db.app)
            #expect(prod.steps.map(\.journeys) == [2, 2, 2, 1, 1, 1])
            let empty = try await FunnelReport.run(
                ReportParameters(from: date("2025-01-01"), to: date("2025-02-01"), now: Fixture.now), on: db.app)
            #expect(empty.steps.map(\.journeys) == [0, 0, 0, 0, 0, 0])
            #expect(empty.steps.allSatisfy { $0.fromStart == nil })
        }
    }

    @Test func funnelShowsTheDropOffsTheAppReported() async throws {
        try await withFixture { db, fixture in
            let t = date("2026-04-01")
            let h = fixture.history
            try await h.journey("k", at: t, [.created(), .token, .capture, .wait(20), .closed])
            try await h.journey("l", at: t.addingTimeInterval(60), [.created(), .token, .capture, .wait(20), .timedOut])
            try await h.journey(
                "m", at: t.addingTimeInterval(120),
                [
                    .created(), .token, .capture, .wait(20), .closed,
                    .retry, .created(), .token, .capture, .timedOut,
                ])
            try await h.journey("n", at: t.addingTimeInterval(180), [.created(), .token, .capture, .wait(20), .success])
            try await h.project()
            let report = try await FunnelReport.run(
                ReportParameters(from: t, to: date("2026-04-02"), now: t.addingTimeInterval(3600)), on: db.app)
            #expect(report.steps.map(\.journeys) == [4, 4, 4, 1, 0, 0])
            #expect(report.dropOffs.map(\.dropOff) == ["closed by user", "session timed out"])
            #expect(report.dropOffs.map(\.journeys) == [2, 2])
            #expect(report.dropOffs.map(\.fromCaptureOpened) == [0.5, 0.5])
            #expect(report.sections.map(\.name) == ["funnel", "drop-offs"])
        }
    }

    @Test func sdkErrorsCarryTheCatalogsMeaningAndAction() async throws {
        try await withFixture { db, _ in
            let report = try await SDKErrorReport.run(Fixture.parameters(), on: db.app)
            #expect(report.attempts == 11)
            #expect(report.errors == 3)
            #expect(report.errorRate == 3.0 / 11.0)
            #expect(report.codes.map(\.code) == [73006, 73302, 73305])
            #expect(report.codes.map(\.count) == [1, 1, 1])
            #expect(report.codes.allSatisfy { $0.share == 1.0 / 3.0 })
            let simulator = try #require(report.codes.first)
            #expect(simulator.meaning == SDKErrorCatalog.standard.entry(for: .simulator).meaning)
            #expect(simulator.recommendedAction == "Test on a physical device")
            #expect(simulator.retryable == false)
            #expect(simulator.documented)

            let prod = try await SDKErrorReport.run(Fixture.parameters(environment: .prod), on: db.app)
            #expect(prod.attempts == 2)
            #expect(prod.codes.map(\.code) == [73305])
            #expect(prod.codes.first?.share == 1.0)
        }
    }

    @Test func sdkErrorsCountCodesOffTheSDKLitePageAndSayWhereEachIsDocumented() async throws {
        try await withFixture { db, fixture in
            let t = date("2026-04-01")
            let h = fixture.history
            let denied = SDKErrorCode(rawValue: SDKErrorCode.sessionStatusCodes.lowerBound)
            // Camera denied, then granted: attempt 2 is approved in the same journey.
            try await h.journey(
                "p", at: t,
                [
                    .created(), .token, .capture, .error(denied), .wait(60), .retry, .created(),
                    .token, .capture, .success, .wait(10), .result(.ok),
                ])
            try await h.journey("q", at: t.addingTimeInterval(60), [.created(), .token, .capture, .error(99_999)])
            try await h.journey("r", at: t.addingTimeInterval(120), [.created(), .token, .capture, .error(denied)])
            try await h.journey("s", at: t.addingTimeInterval(180), [.created(), .token, .capture, .error(.simulator)])
            try await h.project()
            let report = try await SDKErrorReport.run(
                ReportParameters(from: t, to: date("2026-04-02"), now: t.addingTimeInterval(3600)), on: db.app)
            #expect(report.attempts == 5)
            #expect(report.errors == 4)
            #expect(report.offPageErrors == 3)
            #expect(report.codes.map(\.code) == [denied.rawValue, 73006, 99_999])
            #expect(report.codes.map(\.count) == [2, 1, 1])
            #expect(report.codes.map(\.source) == ["fullSDK", "sdkLitePage", "unlisted"])
            #expect(report.codes.map(\.documented) == [false, true, false])
            #expect(report.codes.map(\.retryable) == [true, false, true])
            #expect(report.codes.last?.category == "unknown")
            let section = try #require(report.sections.first)
            #expect(section.title.hasSuffix("; 3 with codes not on the SDK Lite page"))
            #expect(
                section.rows.map { $0[5] } == [
                    "not on the SDK Lite page (full SDK)", "SDK Lite page",
                    "not on the SDK Lite page (unlisted)",
                ])
        }
    }

    @Test func expiryAndRetryRates() async throws {
        try await withFixture { db, _ in
            let report = try await ExpiryRetryReport.run(Fixture.parameters(), on: db.app)
            #expect(report.journeys == 10)
            #expect(report.attempts == 11)
            #expect(report.expiredAttempts == 2)
            #expect(report.expiredShare == 2.0 / 11.0)
            #expect(report.retries == 1)
            #expect(report.retriedJourneys == 1)
            #expect(report.retriesPerJourney == 0.1)
            #expect(report.maxRetries == 1)
            #expect(report.retriedApproved == 1)
            #expect(report.retrySuccessRate == 1.0)
            #expect(report.days.map(\.day) == ["2026-03-02"])
            #expect(report.days.first?.expiredAttempts == 2)
            #expect(report.days.first?.retriedShare == 0.1)

            let wide = try await ExpiryRetryReport.run(
                ReportParameters(from: date("2026-02-01"), to: date("2026-03-08"), now: Fixture.now), on: db.app)
            #expect(wide.days.map(\.day) == ["2026-02-20", "2026-03-02"])
            #expect(wide.days.map(\.journeys) == [1, 10])
        }
    }

    @Test func timeToResultPercentilesAndHistogram() async throws {
        try await withFixture { db, _ in
            let report = try await TimeToResultReport.run(Fixture.parameters(), on: db.app)
            // From start: 60, 90, 400, 770, 960. From callback: 30, 40, 60, 300, 900.
            #expect(report.fromStart.samples == 5)
            #expect(report.fromStart.p50 == 400)
            #expect(abs(report.fromStart.p90! - 884) < 1e-6)
            #expect(abs(report.fromStart.p99! - 952.4) < 1e-6)
            #expect(report.fromCallback.samples == 5)
            #expect(report.fromCallback.p50 == 60)
            #expect(abs(report.fromCallback.p90! - 660) < 1e-6)
            #expect(abs(report.fromCallback.p99! - 876) < 1e-6)
            #expect(report.histogram.map(\.label) == ["<10s", "10-30s", "30s-1m", "1-2m", "2-5m", "5-10m", "10-30m", "30m+"])
            #expect(report.histogram.map(\.journeys) == [0, 0, 0, 2, 0, 1, 2, 0])

            let none = try await TimeToResultReport.run(
                ReportParameters(from: date("2025-01-01"), to: date("2025-01-02"), now: Fixture.now), on: db.app)
            #expect(none.fromStart.samples == 0)
            #expect(none.fromStart.p50 == nil)
            #expect(none.histogram.allSatisfy { $0.journeys == 0 })
        }
    }

    @Test func slaBreachesAtAGivenNow() async throws {
        try await withFixture { db, fixture in
            let report = try await SLAReport.run(Fixture.parameters(), on: db.app)
            #expect(report.callbacksWithoutResult.map(\.journeyID) == [fixture.ids["i"]!, fixture.ids["h"]!])
            #expect(report.callbacksWithoutResult.map(\.minutesWaited) == [15, 29.5])
            #expect(report.callbacksWithoutResult.first?.resultFetchedAt == t0.addingTimeInterval(5160))
            #expect(report.callbacksWithoutResult.last?.resultFetchedAt == nil)
            #expect(report.callbacksWithoutResult.last?.status == "awaitingResult")
            #expect(report.stuckJourneys.map(\.journeyID) == [fixture.ids["d"]!])
            #expect(report.stuckJourneys.first?.status == "retryScheduled")
            #expect(abs(report.stuckJourneys.first!.minutesInStatus - 5000.0 / 60) < 1e-9)

            var tighter = Fixture.parameters(stuckMinutes: 30)
            tighter.thresholdMinutes = 20
            let strict = try await SLAReport.run(tighter, on: db.app)
            #expect(strict.callbacksWithoutResult.map(\.journeyID) == [fixture.ids["h"]!])
            #expect(strict.stuckJourneys.map(\.journeyID) == [fixture.ids["d"]!, fixture.ids["j"]!])
        }
    }

    @Test func subjectHistoryBySubjectReference() async throws {
        try await withFixture { db, fixture in
            let report = try await SubjectHistoryReport.run(Fixture.parameters(subject: "ref-alice"), on: db.app)
            #expect(report.journeys.map(\.journeyID) == [fixture.ids["a"]!, fixture.ids["g"]!])
            #expect(report.journeys.map(\.outcome) == ["approved", "rejected"])
            #expect(report.journeys.map(\.purpose) == ["creditprocess", "biometryonboarding"])
            #expect(report.journeys.first?.endedAt == t0.addingTimeInterval(90))

            var wide = Fixture.parameters(subject: "ref-alice")
            wide.from = date("2026-01-01")
            let all = try await SubjectHistoryReport.run(wide, on: db.app)
            #expect(all.journeys.map(\.journeyID) == [fixture.ids["z"]!, fixture.ids["a"]!, fixture.ids["g"]!])
            let nobody = try await SubjectHistoryReport.run(Fixture.parameters(subject: "ref-nobody"), on: db.app)
            #expect(nobody.journeys.isEmpty)
        }
    }

    @Test func volumeByEnvironmentFlowAndPurpose() async throws {
        try await withFixture { db, _ in
            let report = try await VolumeReport.run(Fixture.parameters(), on: db.app)
            #expect(
                report.groups == [
                    .init(
                        environment: "PROD", flow: "humantoken", purpose: "creditprocess", journeys: 2, completed: 1, approved: 1,
                        abandoned: 0, inProgress: 1),
                    .init(
                        environment: "UAT", flow: "humantoken", purpose: "biometryonboarding", journeys: 1, completed: 1,
                        approved: 0,
                        abandoned: 0, inProgress: 0),
                    .init(
                        environment: "UAT", flow: "humantoken", purpose: "creditprocess", journeys: 7, completed: 3, approved: 3,
                        abandoned: 1, inProgress: 3),
                ])
            #expect(report.total == 10)
            #expect(report.sections.first?.rows.last == ["total", "", "", "10", "5", "4", "1", "4"])
        }
    }

    @Test func reportColumnsSurviveARebuild() async throws {
        try await withFixture { db, _ in
            let before = try await FunnelReport.run(Fixture.parameters(), on: db.app)
            let errorsBefore = try await SDKErrorReport.run(Fixture.parameters(), on: db.app)
            _ = try await Projections.ProjectionRebuilder(client: db.owner).rebuild(name: "journey_state") { _, _ in }
            #expect(try await FunnelReport.run(Fixture.parameters(), on: db.app) == before)
            #expect(try await SDKErrorReport.run(Fixture.parameters(), on: db.app) == errorsBefore)
        }
    }

    @Test func migrationBackfillsTheNewColumnsFromTheStoredState() async throws {
        try await withFixture { db, _ in
            let columns = "journey_id, attempt, token_issued_at, callback_outcome, sdk_error_code"
            let projected = try await rows(db, "SELECT \(columns) FROM journey_attempts ORDER BY 1, 2")
            let updated = try await rows(db, "SELECT journey_id, updated_at FROM journey_state ORDER BY 1")
            try await db.owner.query(
                "UPDATE journey_attempts SET token_issued_at = NULL, callback_outcome = NULL, sdk_error_code = NULL")
            try await db.owner.query("UPDATE journey_state SET updated_at = NULL")
            let migration = try #require(Migrations.SchemaFiles.all.first { $0.name.hasPrefix("0011_") })
            let updates = migration.sql.components(separatedBy: "\n\n").filter { $0.contains("UPDATE journey_") }
            #expect(updates.count == 2)
            for update in updates { try await db.owner.query(PostgresQuery(unsafeSQL: update)) }
            #expect(try await rows(db, "SELECT \(columns) FROM journey_attempts ORDER BY 1, 2") == projected)
            #expect(try await rows(db, "SELECT journey_id, updated_at FROM journey_state ORDER BY 1") == updated)
        }
    }
}

/// Every row of `sql` as its text cells joined by `|`.
func rows(_ db: TestDatabase, _ sql: String) async throws -> [String] {
    try await db.owner.query(PostgresQuery(unsafeSQL: sql)).map { row in
        // Each column's text, "NULL" for a null; past the last column, nothing.
        (0..<8).compactMap { index -> String? in
            do { return try row.decode(index, as: String?.self) ?? "NULL" } catch { return nil }
        }.joined(separator: "|")
    }
}

/// Runs `body` with a fresh database holding the fixture's history.
func withFixture(_ body: (TestDatabase, Fixture) async throws -> Void) async throws {
    try await TestDatabase.with { db in
        let fixture = try await Fixture.build(db)
        try await body(db, fixture)
    }
}
