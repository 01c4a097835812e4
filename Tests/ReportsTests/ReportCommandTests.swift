import Foundation
import JourneyTesting
import Testing

/// `journeys report` against the fixture: each format, and bad input refused before any query.
@Suite(.serialized) struct ReportCommandTests {
    @Test func funnelAsCSVTableAndJSON() async throws {
        try await withFixture { db, _ in
            let window = ["--from", "2026-03-01", "--to", "2026-03-07"]
            let csv = await journeys(["report", "funnel"] + window + ["--format", "csv"], database: db)
            #expect(csv.code == 0, "\(csv.error)")
            #expect(
                csv.output == """
                    section,step,journeys,from previous,from start
                    funnel,started,10,-,100.0%
                    funnel,token issued,10,100.0%,100.0%
                    funnel,capture opened,8,80.0%,80.0%
                    funnel,callback,6,75.0%,60.0%
                    funnel,result fetched,5,83.3%,50.0%
                    funnel,approved,4,80.0%,40.0%

                    section,drop-off,journeys,of capture opened
                    drop-offs,closed by user,0,0.0%
                    drop-offs,session timed out,0,0.0%
                    """)

            let table = await journeys(["report", "funnel"] + window + ["--environment", "PROD"], database: db)
            #expect(table.code == 0, "\(table.error)")
            let lines = table.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "funnel: journeys started 2026-03-01T00:00:00.000Z to 2026-03-08T00:00:00.000Z in PROD")
            #expect(lines.contains("Funnel"))
            #expect(lines.contains("step            journeys  from previous  from start"))
            #expect(lines.contains("capture opened         2         100.0%      100.0%"))
            #expect(lines.contains("approved               1         100.0%       50.0%"))

            let json = await journeys(["report", "sdk-errors"] + window + ["--format", "json"], database: db)
            #expect(json.code == 0, "\(json.error)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            #expect(document["report"] as? String == "sdk-errors")
            #expect(document["from"] as? String == "2026-03-01T00:00:00.000Z")
            #expect(document["to"] as? String == "2026-03-08T00:00:00.000Z")
            let result = try #require(document["result"] as? [String: Any])
            #expect(result["errors"] as? Int == 3)
            let codes = try #require(result["codes"] as? [[String: Any]])
            #expect(codes.map { $0["code"] as? Int } == [73006, 73302, 73305])
            #expect(codes.first?["recommendedAction"] as? String == "Test on a physical device")
        }
    }

    @Test func multiSectionCSVAndSubjectHistory() async throws {
        try await withFixture { db, fixture in
            let window = ["--from", "2026-03-01", "--to", "2026-03-07", "--format", "csv"]
            let timing = await journeys(["report", "time-to-result"] + window, database: db)
            #expect(timing.code == 0, "\(timing.error)")
            let blocks = timing.output.components(separatedBy: "\n\n")
            #expect(blocks.count == 2)
            #expect(
                blocks.first == """
                    section,from,journeys,p50,p90,p99
                    percentiles,start,5,400.0,884.0,952.4
                    percentiles,callback,5,60.0,660.0,876.0
                    """)
            #expect(blocks.last?.hasPrefix("section,bucket,journeys\nhistogram,<10s,0\n") == true)

            let history = await journeys(["report", "subject-history", "--subject", "ref-alice"] + window, database: db)
            #expect(history.code == 0, "\(history.error)")
            let rows = history.output.split(separator: "\n").dropFirst()
            #expect(rows.map { $0.split(separator: ",")[1] } == [Substring(fixture.ids["a"]!), Substring(fixture.ids["g"]!)])

            let volume = await journeys(["report", "volume"] + window, database: db)
            #expect(volume.output.hasSuffix("volume,total,,,10,5,4,1,4"))
        }
    }

    @Test func badInputIsRefusedWithAReadableMessage() async throws {
        try await TestDatabase.with { db in
            let window = ["--from", "2026-03-01", "--to", "2026-03-07"]
            let cases: [(arguments: [String], message: String)] = [
                (
                    ["report", "nope"] + window,
                    "unknown report 'nope'; known: funnel, sdk-errors, expiry-retry, time-to-result, sla, subject-history, volume"
                ),
                (["report", "funnel", "--from", "2026-02-30", "--to", "2026-03-07"], "--from: from must be an ISO 8601 date"),
                (["report", "funnel", "--from", "yesterday", "--to", "2026-03-07"], "got 'yesterday'"),
                (
                    ["report", "funnel", "--from", "2026-03-08", "--to", "2026-03-07T10:00:00Z"],
                    "--from: from (2026-03-08) is after to"
                ),
                (["report", "funnel"] + window + ["--format", "xml"], "unknown format 'xml'; known: table, csv, json"),
                (
                    ["report", "funnel"] + window + ["--environment", "staging"],
                    "--environment: environment must be one of: UAT, PROD"
                ),
                (
                    ["report", "sla"] + window + ["--threshold-minutes", "0"],
                    "--threshold-minutes: threshold-minutes must be a whole number"
                ),
                (["report", "subject-history"] + window, "--subject: subject-history needs subject"),
                (["report", "subject-history", "--subject", "123.456.789-09"] + window, "not a document number"),
            ]
            for (arguments, message) in cases {
                let result = await journeys(arguments, database: db)
                #expect(result.code == 64, "\(arguments)")
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
                #expect(!result.error.contains("123.456.789-09"))
            }
            let missing = await journeys(["report", "funnel", "--to", "2026-03-07"], database: db)
            #expect(missing.code == 64)
            #expect(missing.error.contains("--from"))
        }
    }
}
