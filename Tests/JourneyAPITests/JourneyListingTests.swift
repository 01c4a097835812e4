import Foundation
@testable import JourneyAPI
import EventStore
import JourneyTesting
import Postgres
import Projections
import Synchronization
import Testing

@Suite(.serialized) struct JourneyListingTests {
    /// Starts `count` journeys for `document`, then brings the read model up to date.
    private func start(_ h: JourneyHarness, count: Int, document: String, flow: String = "humantoken") async throws -> [String] {
        var ids: [String] = []
        for _ in 0..<count {
            let answer = try await h.start(
                JourneyHarness.startBody {
                    $0["subject"] = ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": document, "name": "Maria Silva"]
                    $0["flow"] = flow
                })
            #expect(answer.status == 201)
            ids.append(try #require(answer["journeyId"] as? String))
        }
        return ids
    }

    private func catchUp(_ h: JourneyHarness) async throws {
        _ = try await ProjectionRunner(client: h.database.owner, configuration: .init(listen: false)).catchUp()
    }

    @Test func pagesThroughEveryJourneyNewestFirstWithoutGapsOrRepeats() async throws {
        try await withJourneys { h in
            let ids = try await start(h, count: 7, document: "12345678909")
            try await catchUp(h)
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let path = "/v1/journeys?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await h.send("GET", path, bearer: h.reader)
                #expect(page.status == 200)
                let items = try #require(page["items"] as? [[String: Any]])
                seen += items.compactMap { $0["journeyId"] as? String }
                cursor = page["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen.count == 7)
            #expect(Set(seen) == Set(ids))
            #expect(seen == ids.reversed())
        }
    }

    @Test func filtersBySubjectReferenceAndState() async throws {
        try await withJourneys { h in
            let maria = try await start(h, count: 2, document: "12345678909")
            _ = try await start(h, count: 3, document: "98765432100")
            try await catchUp(h)
            let view = try await h.send("GET", "/v1/journeys/\(maria[0])", bearer: h.reader)
            let reference = try #require(view["subjectReference"] as? String)
            #expect(!reference.contains("12345678909"))
            let bySubject = try await h.send("GET", "/v1/journeys?subject=\(reference)", bearer: h.reader)
            let items = try #require(bySubject["items"] as? [[String: Any]])
            #expect(Set(items.compactMap { $0["journeyId"] as? String }) == Set(maria))
            #expect(items.allSatisfy { $0["subjectReference"] as? String == reference })
            #expect(bySubject["nextCursor"] == nil)
            let issued = try await h.send("GET", "/v1/journeys?state=tokenIssued", bearer: h.reader)
            #expect((issued["items"] as? [[String: Any]])?.count == 5)
            let completed = try await h.send("GET", "/v1/journeys?state=completed&environment=UAT", bearer: h.reader)
            #expect((completed["items"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test func badParametersAreProblemsNamingTheParameter() async throws {
        try await withJourneys { h in
            for (query, parameter) in [
                ("state=sleeping", "state"), ("limit=0", "limit"), ("limit=201", "limit"),
                ("cursor=not-a-cursor", "cursor"), ("environment=DEV", "environment"),
                ("subject=12%2034", "subject"),
                ("cursor=" + Self.crafted(Int64.max), "cursor"),
                ("cursor=" + Self.crafted(Int64.min), "cursor"),
                ("cursor=" + Self.crafted(300_000_000_000_000_000), "cursor"),
            ] {
                let answer = try await h.send("GET", "/v1/journeys?\(query)", bearer: h.reader)
                #expect(answer.status == 400, "\(query)")
                #expect(answer.code == "invalid_query")
                #expect(answer["parameter"] as? String == parameter)
                #expect(answer.headers["content-type"] == "application/problem+json")
            }
            let anonymous = try await h.send("GET", "/v1/journeys")
            #expect(anonymous.status == 401)
        }
    }

    @Test func metricsCountJourneysByState() async throws {
        try await withJourneys { h in
            _ = try await start(h, count: 3, document: "12345678909")
            try await catchUp(h)
            let metrics = try await h.send("GET", "/metrics")
            let text = String(decoding: metrics.body, as: UTF8.self)
            #expect(text.contains(#"journeys_by_state{state="tokenIssued"} 3"#))
            #expect(text.contains(#"journeys_by_state{state="completed"} 0"#))
            #expect(text.contains("journeys_awaiting_result_over_sla 0"))
            // A journey whose success callback is 11 minutes old without a result is flagged.
            _ = try await h.database.owner.query(
                """
                UPDATE journey_state SET status = 'awaitingResult', callback_at = now() - interval '11 minutes'
                WHERE journey_id = (SELECT journey_id FROM journey_state LIMIT 1)
                """)
            let later = String(decoding: try await h.send("GET", "/metrics").body, as: UTF8.self)
            #expect(later.contains("journeys_awaiting_result_over_sla 1"))
        }
    }

    @Test func aJourneyAsOfAnInstantShowsOnlyWhatWasRecordedByThen() async throws {
        try await withJourneys { h in
            let before = Date().addingTimeInterval(-60)
            let id = try #require(try await start(h, count: 1, document: "12345678909").first)
            let now = try await h.send("GET", "/v1/journeys/\(id)", bearer: h.reader)
            #expect(now["status"] as? String == "tokenIssued")
            let stamp = ISO8601DateFormatter().string(from: Date().addingTimeInterval(1))
            let asOfNow = try await h.send("GET", "/v1/journeys/\(id)?asOf=\(stamp)", bearer: h.reader)
            #expect(asOfNow.status == 200)
            #expect(asOfNow["status"] as? String == "tokenIssued")
            let earlier = ISO8601DateFormatter().string(from: before)
            #expect(try await h.send("GET", "/v1/journeys/\(id)?asOf=\(earlier)", bearer: h.reader).status == 404)
            let bad = try await h.send("GET", "/v1/journeys/\(id)?asOf=yesterday", bearer: h.reader)
            #expect(bad.status == 400)
            #expect(bad["field"] as? String == "asOf")
        }
    }

    @Test func writesWakeFollowersOfTheLogWithANotification() async throws {
        try await withJourneys { h in
            let notified = Flag()
            let listener = PostgresListener(h.database.app.database, channels: [EventStore.notificationChannel])
            let listening = Flag()
            let task = Task {
                await listener.run { event in
                    switch event {
                    case .listening: listening.raise()
                    case .notification: notified.raise()
                    }
                }
            }
            defer { task.cancel() }
            try await listening.wait("the LISTEN connection is up")
            let started = try await h.start()
            #expect(started.status == 201)
            try await notified.wait("POST /v1/journeys committed events with NOTIFY journeys_events")
        }
    }

    /// A well-formed cursor carrying `micros` as its start time.
    static func crafted(_ micros: Int64) -> String {
        JourneyListing.Cursor(startedMicros: micros, journeyID: UUID().uuidString.lowercased()).encoded
    }

    @Test func cursorsRoundTrip() {
        let cursor = JourneyListing.Cursor(startedMicros: 1_790_000_000_123_456, journeyID: UUID().uuidString.lowercased())
        #expect(JourneyListing.Cursor(encoded: cursor.encoded) == cursor)
        #expect(JourneyListing.Cursor(encoded: "MTIzOm5vdC1hLXV1aWQ") == nil)
    }
}

/// A one-way signal a test can wait on.
final class Flag: Sendable {
    private let raised = Mutex(false)
    func raise() { raised.withLock { $0 = true } }
    func wait(_ what: String) async throws {
        try await waitUntil(what) { raised.withLock { $0 } }
    }
}
