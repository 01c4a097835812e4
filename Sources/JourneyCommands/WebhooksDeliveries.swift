import CLI
import Foundation
import JourneyApp
import OutboundWebhooks

/// `journeys webhooks deliveries KEY`: the recent deliveries to a key's endpoints and where they stand.
struct WebhooksDeliveries: Command {
    static let configuration = CommandConfiguration(
        name: "deliveries", summary: "List the recent deliveries to a key's endpoints, newest first, with their status.",
        discussion: """
            STATUS is pending, delivered or given up; ATTEMPTS counts requests made; LAST is the last HTTP \
            status (or -); NEXT TRY is when a pending delivery goes out next; ERROR is why the last attempt \
            failed (an HTTP status, a transport error, a refused destination). Payloads are never shown.
            """,
        options: [.optional("limit", valueName: "N", help: "How many deliveries (1-1000).", default: "20")],
        positionals: [PositionalSpec("key", help: "The API key's id (UUID) or prefix.")])
    let key: String
    let limit: Int

    init(arguments: ParsedArguments) throws {
        key = try arguments.string("key")
        limit = try arguments.int("limit", in: 1...1000)
    }

    func run() async throws {
        let (keyID, deliveries) = try await WebhooksCommand.withLog { [key, limit] in try await $0.recent(key: key, limit: limit)
        }
        let out = AppEnvironment.current.writeLine
        guard !deliveries.isEmpty else {
            return out("no webhook deliveries for API key \(keyID.uuidString.lowercased())")
        }
        var table = TextTable(columns: [
            "DELIVERY", "TYPE", "MESSAGE", "CREATED", "STATUS",
            TextTable.Column("ATTEMPTS", alignment: .right), "LAST", "NEXT TRY",
            "DELIVERED AT", "ERROR",
        ])
        for delivery in deliveries {
            var status = delivery.status.rawValue
            if let original = delivery.resendOf { status += " (resend of \(original.uuidString.lowercased().prefix(8)))" }
            table.append([
                delivery.id.uuidString.lowercased(), delivery.eventType, delivery.messageID,
                WebhooksCommand.format(delivery.createdAt), status, String(delivery.attempts),
                delivery.lastStatus.map(String.init) ?? "-", WebhooksCommand.format(delivery.nextAttemptAt),
                WebhooksCommand.format(delivery.deliveredAt), delivery.lastError ?? "-",
            ])
        }
        out(String(table.render().dropLast()))
    }
}
