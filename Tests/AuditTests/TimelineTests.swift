import Audit
import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import JourneyTesting
@testable import JourneyAPI
import JourneyEngine
import Testing
import Timestamps

@Suite struct TimelineTests {
    @Test func asOfFoldsOnlyTheEventsRecordedByThen() async throws {
        try await TestDatabase.with { db in
            let id = JourneyID(UUID().uuidString.lowercased())
            try await record(approvedOnSecondAttempt(id), journey: id, db: db)
            let recorded = try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue))
            let decoded = try recorded.map { try JourneyEvent(type: $0.type, data: Data($0.data.text.utf8)) }
            let times = recorded.map(\.recordedAt)
            #expect(Set(times).count > 5, "appends recorded at distinct times")

            // At every event's time, just after it, and midway to the next: the fold of what was recorded by then.
            for (index, time) in times.enumerated() {
                let next = index + 1 < times.count ? times[index + 1] : time.addingTimeInterval(60)
                for instant in [time, time.addingTimeInterval(next.timeIntervalSince(time) / 2)] {
                    let expectedCount = times.filter { $0 <= RFC3339.roundedToMicroseconds(instant) }.count
                    let timeline = try await JourneyTimeline.load(id, asOf: instant, events: EventStore(client: db.app))
                    #expect(timeline.entries.count == expectedCount)
                    #expect(timeline.state == Journey.fold(decoded.prefix(expectedCount)))
                    #expect(timeline.currentVersion == Int64(recorded.count))
                }
            }
            // Known moments of this history.
            let failed = try #require(recorded.firstIndex { $0.type == "AttemptFailed" })
            let whenFailed = try await JourneyTimeline.load(id, asOf: times[failed], events: EventStore(client: db.app))
            #expect(whenFailed.state.status == .retryScheduled)
            #expect(whenFailed.state.currentAttemptNumber == 1)
            #expect(whenFailed.state.lastErrorCode == .authenticationFailed)
            #expect(whenFailed.entries.last?.description.contains("73302") == true)
            let completed = try #require(recorded.firstIndex { $0.type == "JourneyCompleted" })
            let justBefore = try await JourneyTimeline.load(
                id, asOf: times[completed].addingTimeInterval(-0.000_001), events: EventStore(client: db.app))
            #expect(justBefore.state.status != .completed)
            #expect(justBefore.state.currentAttemptNumber == 2)
            let now = try await JourneyTimeline.load(id, asOf: nil, events: EventStore(client: db.app))
            #expect(now.state.status == .completed)
            #expect(now.state.outcome == .approved)
            #expect(now.entries.map(\.version) == Array(1...Int64(recorded.count)))
            #expect(now.entries.allSatisfy { $0.actor == "api-key:test" })
            let before = try await JourneyTimeline.load(
                id, asOf: times[0].addingTimeInterval(-0.000_001), events: EventStore(client: db.app))
            #expect(before.entries.isEmpty)
            #expect(before.state.status == .notStarted)

            let unknown = await #expect(throws: AuditError.self) {
                try await JourneyTimeline.load(JourneyID("nope"), asOf: nil, events: EventStore(client: db.app))
            }
            #expect(unknown?.code == .journeyNotFound)
        }
    }

    @Test func theAPILoadsAJourneyAsOfAnInstantAndNamesABadAsOf() async throws {
        try await TestDatabase.with { db in
            let id = JourneyID(UUID().uuidString.lowercased())
            try await record(approvedOnSecondAttempt(id), journey: id, db: db)
            let recorded = try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue))
            let writer = Journeys(database: db.app, dependencies: .development(database: db.app))
            func request(_ asOf: String?) -> HTTPRequest {
                HTTPRequest(
                    method: .get, path: "/v1/journeys/\(id.rawValue)",
                    queryItems: asOf.map { [URLQueryItem(name: "asOf", value: $0)] } ?? [])
            }
            #expect(try await writer.load(id, asOf: request(nil)).status == .completed)
            let failed = try #require(recorded.first { $0.type == "AttemptFailed" })
            let then = try await writer.load(id, asOf: request(RFC3339.string(from: failed.recordedAt)))
            #expect(then.status == .retryScheduled)
            // The same instant written with an offset.
            let local = try await writer.load(id, asOf: request(Self.minus3(failed.recordedAt)))
            #expect(local == then)

            for bad in ["", "yesterday", "2026-13-01T00:00:00Z", "2026-11-29T18:00:00", "2026-11-29"] {
                let problem = await #expect(throws: Problem.self) { try await writer.load(id, asOf: request(bad)) }
                #expect(problem?.status == .badRequest, "\(bad)")
                #expect(problem?.code == "invalid_query_parameter")
                #expect(problem?.extra["field"] == "asOf")
            }
            let early = await #expect(throws: Problem.self) {
                try await writer.load(id, asOf: request(RFC3339.string(from: recorded[0].recordedAt.addingTimeInterval(-1))))
            }
            #expect(early?.status == .notFound)
            // An unknown journey, or another tenant's, is the engine's journey_not_found (404 on the API).
            for (journey, tenant) in [(JourneyID(UUID().uuidString.lowercased()), "default"), (id, "acme")] {
                let unknown = await #expect(throws: EngineError.self) {
                    try await writer.load(journey, asOf: request(RFC3339.string(from: Date())), tenant: tenant)
                }
                #expect(unknown?.code == .journeyNotFound)
            }
        }
    }

    /// `date` in RFC 3339 at UTC-03:00 with microseconds.
    static func minus3(_ date: Date) -> String {
        let utc = RFC3339.string(from: date.addingTimeInterval(-3 * 3600))
        return String(utc.dropLast()) + "-03:00"
    }
}
