import CLI
import Foundation
import JourneyApp
import JourneyDomain
import JourneyEngine
import Privacy
import Timestamps

/// `journeys journeys`: an operator's controls on one journey (today: cancel it).
///
/// Exit codes: 1 unknown journey, or a journey that already ended otherwise; 64 invalid input.
struct JourneysControlCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "journeys", summary: "An operator's controls on one journey: cancel it.",
        discussion: "The same controls as the API (POST /v1/journeys/{id}/cancel), for any tenant's journey, "
            + "recorded with actor cli.",
        subcommands: [JourneysCancel.self])
}

struct JourneysCancel: Command {
    static let configuration = CommandConfiguration(
        name: "cancel", summary: "Cancel a journey: it ends abandoned (reason kind cancelled) and makes no more processes.",
        discussion: """
            Appends JourneyCancelled (the reason, actor cli) and JourneyAbandoned with reason kind \
            cancelled; the company receives journey.abandoned, the app's token and report requests \
            answer 409 naming the state. Idempotent: cancelling a cancelled journey changes nothing \
            and exits 0; a journey that completed or was abandoned otherwise exits 1.
            """,
        options: [
            .required(
                "reason", valueName: "TEXT",
                help: "Why (1 to \(JourneyCancellation.maximumReasonLength) characters, recorded in the "
                    + "log and sent in the webhook; no personal data).")
        ],
        positionals: [PositionalSpec("id", help: "The journey id (a UUID).")])
    let id: JourneyID
    let reason: String

    init(arguments: ParsedArguments) throws {
        let text = try arguments.string("id")
        guard let uuid = UUID(uuidString: text) else { throw AppError(.invalidInput, "ID must be a journey id (a UUID)") }
        id = JourneyID(uuid.uuidString.lowercased())
        switch JourneyCancellation.checkedReason(try arguments.string("reason"), field: "--reason") {
        case .success(let reason): self.reason = reason
        case .failure(let issue): throw AppError(.invalidInput, issue.message)
        }
    }

    func run() async throws {
        let environment = AppEnvironment.current
        let database = try await Database.open(environment.database, poolSize: 1)
        defer { database.close() }
        // A cancellation seals and opens nothing: the sealing keys are not needed for it.
        let privacy = (try? Wiring.privacyConfiguration(environment.variables, database: database)) ?? .development()
        let journeys = JourneyApp.operatorJourneys(database: database, privacy: privacy)
        let changed: Bool, abandonedAt: Date?
        do {
            let outcome = try await journeys.cancel(id, JourneyCancellation(reason: reason, actor: "cli"))
            (changed, abandonedAt) = (!outcome.events.isEmpty, outcome.state.abandonedAt)
        } catch let error as EngineError where error.code == .journeyNotFound {
            throw AppError(.notFound, "no journey has id \(id.rawValue)")
        } catch let error as DomainError {
            throw AppError(.notFound, "journey \(id.rawValue): \(error.message)")
        }
        let when = abandonedAt.map { RFC3339.string(from: $0) } ?? "-"
        environment.writeLine(
            !changed
                ? "journey \(id.rawValue) was already cancelled at \(when); nothing changed"
                : "journey \(id.rawValue) cancelled at \(when) (status abandoned, reason cancelled)")
    }
}
