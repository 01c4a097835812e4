import EventStore
import Foundation
import JourneyDomain
@testable import OutboundWebhooks
import Postgres
import Testing

/// Every step a company subscribes to: the mapping, per-endpoint filtering, and the payloads.
@Suite(.serialized) struct SubscriptionTests {
    func follower(_ f: Fixture) -> JourneyWebhookFollower {
        let clock = f.clock
        return JourneyWebhookFollower(client: f.db.projector, configuration: .init(batchSize: 100), now: { clock.now() })
    }

    /// The queued types at `endpointID`, in queue order.
    func types(_ f: Fixture, at endpointID: UUID) async throws -> [String] {
        try await f.db.app.query(
            """
            SELECT event_type FROM webhook_deliveries WHERE endpoint_id = \(endpointID) ORDER BY created_at, event_type
            """
        ).map { try $0.decode(0, as: String.self) }
    }

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func eachEndpointGetsExactlyTheStepsItSubscribesTo() async throws {
        try await Fixture.with(events: nil) { f in
            let attempts = Receiver(secret: WebhookSecret.generate(), clock: f.clock)
            let attemptsURL = try attempts.start()
            defer { Task { await attempts.stop() } }
            let attemptsEndpoint = try await f.db.app.transaction { [f] connection in
                try WebhookEndpoints.create(
                    apiKeyID: f.apiKeyID, url: attemptsURL, secret: WebhookSecret.generate(),
                    sealer: f.sealer, eventTypes: [.attemptFailed, .attemptExpired],
                    destinations: .loopback, now: f.clock.now(), on: connection)
            }
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()
            try await journeys.fail(.tokenExpired)
            try await journeys.fail(.authenticationFailed)
            try await journeys.abandon()
            try await journeys.waitUntilReadable()

            let queued = try await follower(f).catchUp()
            let all = try await types(f, at: f.endpointID)
            // complete: started, capture_opened, completed; expired: started, expired (the
            // TokenExpired before its AttemptFailed is not sent on its own); SDK error: started,
            // failed, and abandoned when the code is not retryable; abandon: started, abandoned.
            #expect(all.filter { $0 == "journey.started" }.count == 4)
            #expect(all.filter { $0 == "attempt.capture_opened" }.count == 1)
            #expect(all.filter { $0 == "attempt.expired" }.count == 1)
            #expect(all.filter { $0 == "attempt.failed" }.count == 1)
            #expect(all.filter { $0 == "journey.completed" }.count == 1)
            #expect(Set(all).isSubset(of: Set(JourneyWebhookEventType.all.map(\.rawValue))))
            #expect(try await types(f, at: attemptsEndpoint).sorted() == ["attempt.expired", "attempt.failed"])
            #expect(queued == all.count + 2)
            #expect(try await follower(f).catchUp() == 0, "each step is queued once")

            #expect(try await f.dispatcher().dispatchDue(limit: 50) == queued)
            let bodies = try f.receiver.received.map { try json($0.body) }
            #expect(f.receiver.received.allSatisfy { $0.verified })
            let started = try #require(bodies.first { $0["type"] as? String == "journey.started" }?["data"] as? [String: Any])
            #expect(Set(started.keys) == ["journeyId", "attempt", "environment", "clientReference", "occurredAt"])
            #expect(started["attempt"] as? Int == 0)
            let opened = try #require(
                bodies.first { $0["type"] as? String == "attempt.capture_opened" }?["data"] as? [String: Any])
            #expect(opened["superseded"] as? Bool == false && opened["attempt"] as? Int == 1)
            let expired = try #require(bodies.first { $0["type"] as? String == "attempt.expired" }?["data"] as? [String: Any])
            let expiredReason = try #require(expired["reason"] as? [String: Any])
            #expect(expiredReason["kind"] as? String == "tokenExpired" && expiredReason["sdkCode"] as? Int == 73305)
            #expect(expired["retryAt"] is String, "a retry is scheduled after an expiry")
            let failed = try #require(bodies.first { $0["type"] as? String == "attempt.failed" }?["data"] as? [String: Any])
            #expect((failed["reason"] as? [String: Any])?["kind"] as? String == "sdkError")
            #expect(failed.keys.contains("retryAt"), "null when the policy gives up")
            let text = f.receiver.received.map { String(decoding: $0.body, as: UTF8.self) }.joined()
            for personal in ["12345678909", "Maria", "human-token-value", "wat", "sealed:"] {
                #expect(!text.contains(personal), "no personal data or secrets: \(personal)")
            }
            #expect(attempts.received.count == 2)
        }
    }

    @Test func aKeyWhoseEndpointsTakeNoneOfAJourneysStepsQueuesNothing() async throws {
        try await Fixture.with(events: [.attemptFailed]) { f in
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 0)
            #expect(try await types(f, at: f.endpointID).isEmpty)
        }
    }

    @Test func changingTheSubscriptionAppliesToLaterSteps() async throws {
        try await Fixture.with(events: [.journeyCompleted]) { f in
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 1)
            try await f.db.app.withConnection { [f] in try WebhookEndpoints.subscribe(f.endpointID, to: nil, on: $0) }
            try await journeys.abandon()
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 2, "journey.started and journey.abandoned")
            let endpoints = try await f.db.app.withConnection { [f] in try WebhookEndpoints.list(apiKeyID: f.apiKeyID, on: $0) }
            let endpoint = try #require(endpoints.first)
            #expect(endpoint.eventTypes == nil && endpoint.subscribes(to: .attemptExpired))
        }
    }

    @Test func theEventTypeListIsParsedStrictly() throws {
        #expect(try JourneyWebhookEventType.parseList("all") == nil)
        #expect(
            try JourneyWebhookEventType.parseList(" journey.completed, attempt.failed ,journey.completed")
                == [.journeyCompleted, .attemptFailed])
        for (bad, named) in [
            ("journey.complete", "'journey.complete'"), ("journey.started,nope", "'nope'"), (",", "at least one"),
        ] {
            #expect {
                _ = try JourneyWebhookEventType.parseList(bad)
            } throws: { error in
                let error = try #require(error as? WebhookError)
                return error.code == .invalidArgument && error.message.contains(named)
            }
        }
    }
}
