import Foundation
import JourneyTesting
import Testing

/// `POST /v1/journeys` with the journey's own `maximumAttempts` and `deadline`, within the
/// deployment's limits (issue 26); each bad value is a 422 naming its field.
@Suite struct JourneyLimitsTests {
    static func stamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: false).format(date)
    }

    @Test func badBudgetsAndDeadlinesAre422NamingTheField() async throws {
        try await withJourneys { h in
            let day = Self.stamp(Date().addingTimeInterval(86_400))
            let cases: [(String, Any)] = [
                ("maximumAttempts", 6), ("maximumAttempts", 0), ("maximumAttempts", "3"), ("maximumAttempts", 2.5),
                ("deadline", Self.stamp(Date().addingTimeInterval(-60))),
                ("deadline", Self.stamp(Date().addingTimeInterval(31 * 86_400))),
                ("deadline", String(day.dropLast())), ("deadline", "2026-12-01"), ("deadline", 1_800_000_000),
            ]
            for (field, value) in cases {
                let answer = try await h.start(JourneyHarness.startBody { $0[field] = value })
                #expect(answer.status == 422, "\(field)=\(value): \(answer.text)")
                #expect(
                    answer["code"] as? String == "validation_failed" && answer["field"] as? String == field,
                    "\(field)=\(value): \(answer.text)")
            }
            #expect(try await h.journeyCount() == 0)
        }
    }

    @Test func aGoodStartShowsBothAndBoundsItsClientToken() async throws {
        try await withJourneys { h in
            let deadline = Date().addingTimeInterval(1800).addingTimeInterval(0.5).rounded
            let started = try await h.start(
                JourneyHarness.startBody {
                    $0["createProcess"] = nil
                    $0["maximumAttempts"] = 2
                    $0["deadline"] = Self.stamp(deadline)
                })
            #expect(started.status == 201, "\(started.text)")
            let id = try #require(started["journeyId"] as? String)
            // The client token (1 h by default) and the first-token window end at the deadline.
            #expect(started["clientTokenExpiresAt"] as? String == Self.fractional(deadline))
            #expect(started["firstTokenBy"] as? String == Self.fractional(deadline))
            let shown = try await h.send("GET", "/v1/journeys/\(id)", bearer: h.reader)
            #expect(shown.status == 200, "\(shown.text)")
            #expect(shown["maximumAttempts"] as? Int == 2)
            #expect(shown["deadline"] as? String == Self.fractional(deadline))
            let plain = try await h.start()
            let other = try await h.send("GET", "/v1/journeys/\(try #require(plain["journeyId"] as? String))", bearer: h.reader)
            #expect(other["maximumAttempts"] as? Int == 5 && other["deadline"] == nil, "\(other.text)")
        }
    }

    static func fractional(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}

private extension Date {
    /// Whole seconds, as the stamps above write them.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
