import CLI
import Foundation
import JourneyApp
import OutboundWebhooks

/// `journeys webhooks resend DELIVERY`: sends one delivery's message again, as a new delivery.
struct WebhooksResend: Command {
    static let configuration = CommandConfiguration(
        name: "resend", summary: "Send a delivery's message again (a new delivery; the old one's history is kept).",
        discussion: """
            The new delivery has the same webhook-id, type and payload, is due at once (the workers send it) \
            and gets a fresh retry schedule. A delivery that is still pending cannot be resent (exit 1).
            """,
        positionals: [PositionalSpec("delivery", help: "The delivery's id, as 'journeys webhooks deliveries' lists it.")])
    let delivery: UUID

    init(arguments: ParsedArguments) throws { delivery = try arguments.uuid("delivery") }

    func run() async throws {
        let resent = try await WebhooksCommand.withLog { [delivery] in try await $0.resend(delivery) }
        let out = AppEnvironment.current.writeLine
        out("delivery: \(resent.id.uuidString.lowercased()) (new)")
        out("resends:  \(delivery.uuidString.lowercased())")
        out("message:  \(resent.messageID) (\(resent.eventType))")
        out("status:   pending, due \(WebhooksCommand.format(resent.nextAttemptAt))")
    }
}
