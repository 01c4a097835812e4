import Foundation
import JourneyDomain
import JourneyTesting
import Migrations
import Postgres
import Projections
@testable import Reports
import Testing

/// The daily rollups (migration 0026) against the read models they summarize: over a varied
/// generated history, every counting report read from the rollups equals the same report read from
/// every journey of the window, for windows with partial and whole days; and so after a rebuild.
@Suite(.serialized) struct ReportRollupTests {
    @Test func rollupAnswersEqualTheReadModelsOverAVariedHistory() async throws {
        try await TestDatabase.with { db in
            try await VariedHistory.build(db)
            try await expectRollupsMatchReadModels(db)
            let before = try await rollupRows(db)
            #expect(!before.isEmpty)

            _ = try await ProjectionRebuilder(client: db.owner).rebuild(name: "journey_state") { _, _ in }
            #expect(try await rollupRows(db) == before)
            try await expectRollupsMatchReadModels(db)
            // The rebuilt rollups are readable by the application role and the analyst role's grants hold.
            #expect(try await db.app.query("SELECT count(*)::int FROM journey_daily").first?.decode(0, as: Int.self) ?? 0 > 0)

            // A second rebuild (index names restored by the first) works the same.
            _ = try await ProjectionRebuilder(client: db.owner).rebuild(name: "journey_state") { _, _ in }
            #expect(try await rollupRows(db) == before)
        }
    }

    @Test func migrationBackfillEqualsTheProjectedRollups() async throws {
        try await TestDatabase.with { db in
            try await VariedHistory.build(db)
            let projected = try await rollupRows(db)
            try await db.owner.query(
                "TRUNCATE journey_daily, journey_daily_sdk_errors, journey_daily_time_to_result, journey_daily_result_bins")
            let migration = try #require(Migrations.SchemaFiles.all.first { $0.name.hasPrefix("0026_") })
            let backfill = try #require(migration.sql.components(separatedBy: "\n\n").first { $0.contains("WITH a AS") })
            try await db.owner.query(PostgresQuery(unsafeSQL: backfill))
            #expect(try await rollupRows(db) == projected)
        }
    }

    @Test func histogramBoundsAreTheRollupsBuckets() {
        #expect(TimeToResultReport.bounds == DailyRollup.timeToResultBounds)
    }

    @Test func windowSplitsIntoWholeDaysAndEdges() {
        let window = ReportWindow(ReportParameters(from: date("2026-03-01T05:30:00Z"), to: date("2026-03-04T17:00:00Z"), now: t0))
        #expect(window.days == ("2026-03-02", "2026-03-04"))
        let inOneDay = ReportWindow(
            ReportParameters(from: date("2026-03-01T05:30:00Z"), to: date("2026-03-01T17:00:00Z"), now: t0))
        #expect(inOneDay.dayFrom == inOneDay.dayTo)
        let whole = ReportWindow(ReportParameters(from: date("2026-03-01"), to: date("2026-03-03"), now: t0))
        #expect(whole.days == ("2026-03-01", "2026-03-03"))
    }

    private func expectRollupsMatchReadModels(_ db: TestDatabase) async throws {
        let windows: [(String, String)] = [
            ("2026-03-01T05:30:00Z", "2026-03-03T17:45:00Z"), ("2026-02-28", "2026-03-05"),
            ("2026-03-02T02:00:00Z", "2026-03-02T20:00:00Z"), ("2026-03-01", "2026-03-02T12:00:00Z"),
            ("2026-03-02T23:59:59Z", "2026-03-04T00:00:01Z"),
        ]
        for (from, to) in windows {
            for environment in [nil, Environment.uat, .prod] {
                var parameters = ReportParameters(from: date(from), to: date(to), environment: environment, now: t0)
                var direct = parameters
                direct.source = .readModels
                parameters.source = .rollups
                let label = "\(from)..\(to) \(environment?.rawValue ?? "all")"
                #expect(try await FunnelReport.run(parameters, on: db.app) == FunnelReport.run(direct, on: db.app), "\(label)")
                #expect(
                    try await SDKErrorReport.run(parameters, on: db.app) == SDKErrorReport.run(direct, on: db.app), "\(label)")
                #expect(
                    try await ExpiryRetryReport.run(parameters, on: db.app) == ExpiryRetryReport.run(direct, on: db.app),
                    "\(label)")
                #expect(
                    try await TimeToResultReport.run(parameters, on: db.app) == TimeToResultReport.run(direct, on: db.app),
                    "\(label)")
                #expect(try await VolumeReport.run(parameters, on: db.app) == VolumeReport.run(direct, on: db.app), "\(label)")
            }
        }
        let all = try await FunnelReport.run(
            ReportParameters(from: date("2026-02-01"), to: date("2026-04-01"), now: t0), on: db.app)
        #expect(all.steps.first?.journeys == VariedHistory.count)
    }

    /// The rollups' non-empty rows as text, in key order.
    private func rollupRows(_ db: TestDatabase) async throws -> [String] {
        try await db.owner.query(
            """
            SELECT row(d.*)::text FROM journey_daily d WHERE journeys <> 0
            UNION ALL SELECT row(e.*)::text FROM journey_daily_sdk_errors e WHERE attempts <> 0
            UNION ALL SELECT row(t.*)::text FROM journey_daily_time_to_result t WHERE journeys <> 0
            UNION ALL SELECT row(b.*)::text FROM journey_daily_result_bins b WHERE journeys <> 0
            ORDER BY 1
            """
        ).map { try $0.decode(0, as: String.self) }
    }
}

/// Journeys over four days around 2026-03-02 (some close to midnight), in both environments and
/// every purpose, each taken through one of a dozen step lists, chosen by a seeded generator.
enum VariedHistory {
    static let count = 48

    static let scenarios: [[Step]] = [
        [.created(), .token, .capture, .wait(40), .success, .wait(30), .result(.ok)],
        [.created(), .token, .capture, .wait(70), .success, .wait(400), .result(.invalidIdentity)],
        [
            .created(), .token, .capture, .error(.authenticationFailed), .wait(600), .retry, .created(), .token, .capture,
            .wait(20), .success, .wait(2000), .result(.ok),
        ],
        [.created(expiresIn: 300), .token, .wait(400), .expire],
        [
            .created(expiresIn: 300), .token, .wait(400), .expire, .wait(60), .retry, .created(expiresIn: 300), .token,
            .wait(400), .expire,
        ],
        [.created(), .token, .capture, .wait(20), .closed],
        [
            .created(), .token, .capture, .wait(20), .timedOut, .wait(60), .retry, .created(), .token, .capture, .success,
            .wait(5),
            .result(.ok),
        ],
        [.created(), .token],
        [.created(), .token, .capture, .wait(30), .success],
        [.created(), .token, .capture, .error(.tokenExpired)],
        [.created(), .token, .capture, .error(.simulator)],
        [
            .created(), .token, .capture, .error(.authenticationFailed), .wait(60), .retry, .created(), .token, .capture,
            .error(.authenticationFailed), .wait(60), .retry, .created(), .token, .capture, .success, .wait(3), .result(.ok),
        ],
    ]

    static func build(_ db: TestDatabase) async throws {
        let history = History(db: db)
        var seed: UInt64 = 0x5eed_1234
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let base = date("2026-03-01T00:00:00Z")
        for index in 0..<count {
            // A quarter within 20 minutes of a midnight, the rest anywhere in the four days.
            let day = Double(next(4)) * 86_400
            let offset = index % 4 == 0 ? 86_400 - Double(next(1200)) : Double(next(86_400))
            try await history.journey(
                "v\(index)", at: base.addingTimeInterval(day + offset),
                environment: next(3) == 0 ? .prod : .uat, purpose: Purpose.allCases[next(Purpose.allCases.count)],
                scenarios[next(scenarios.count)])
        }
        // Three events per batch: a journey's rows change over many batches, so each batch takes
        // its journeys' previous contribution out of the rollups before adding the new one.
        _ = try await ProjectionRunner(client: db.owner, configuration: .init(batchSize: 3, listen: false)).catchUp()
        try await history.project()
    }
}
