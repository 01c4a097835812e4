import Foundation
import JourneyDomain
import OutboundWebhooks
import Testing

/// A cancelled journey is sent once, as `journey.abandoned` with reason kind `cancelled`;
/// `JourneyCancelled` itself is not a webhook type.
@Suite struct CancelledJourneyMessageTests {
    @Test func aCancellationIsSentAsJourneyAbandonedWithItsReason() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let cancelled = JourneyEvent.journeyCancelled(
            JourneyCancelled(
                attempt: 1, occurredAt: at, reason: "order withdrawn",
                actor: "api-key:abcd2345"))
        #expect(JourneyWebhookEventType.of(cancelled) == nil)
        #expect(try JourneyWebhookMessage(event: cancelled, eventID: UUID(), journeyID: "j", started: nil) == nil)

        let abandoned = JourneyEvent.journeyAbandoned(
            JourneyAbandoned(
                attempt: 1, occurredAt: at,
                reason: .cancelled("order withdrawn")))
        let message = try #require(try JourneyWebhookMessage(event: abandoned, eventID: UUID(), journeyID: "j", started: nil))
        #expect(message.type == "journey.abandoned")
        let data = try #require(try JSONSerialization.jsonObject(with: Data(message.payload.text.utf8)) as? [String: Any])
        let reason = try #require(data["reason"] as? [String: Any])
        #expect(reason["kind"] as? String == "cancelled")
        #expect(reason["detail"] as? String == "order withdrawn")
        #expect(data["actor"] == nil, "who cancelled stays in the log")
    }
}
