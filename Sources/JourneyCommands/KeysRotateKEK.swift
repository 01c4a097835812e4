import CLI
import JourneyApp
import OutboundWebhooks
import Postgres
import Privacy

/// `journeys keys rotate-kek`: re-wraps every subject data key and sealed webhook secret under `JOURNEYS_KEK`.
struct KeysRotateKEK: Command {
    static let configuration = CommandConfiguration(
        name: "rotate-kek",
        summary: "Re-wrap every subject data key and webhook secret under the current JOURNEYS_KEK.",
        discussion: """
            Reads the older KEKs from JOURNEYS_KEK_PREVIOUS (id:key, or a bare key whose id is its short hash). \
            Checks first that every KEK in use is configured and unwraps its rows (otherwise nothing changes), \
            then re-wraps in batches, each committed on its own; rows already under the current KEK are skipped, \
            so a run that was stopped is finished by running it again. Runs as the schema owner \
            (DATABASE_ADMIN_URL). Prints re-wrapped / already current / failed counts; exits 1 if any row failed. \
            Afterwards the previous KEK can be removed from JOURNEYS_KEK_PREVIOUS.
            """,
        options: [
            .optional("batch-size", valueName: "N", help: "Rows per batch (one transaction each).", default: "500"),
            .optional(
                "max-batches", valueName: "N", help: "Stop after N batches (0: run to the end); run again to go on.",
                default: "0"),
        ])
    let rotation: KEKRotation.Configuration

    init(arguments: ParsedArguments) throws {
        var rotation = KEKRotation.Configuration()
        rotation.batchSize = try arguments.int("batch-size", in: 1...100_000)
        let maximum = try arguments.int("max-batches", in: 0...1_000_000_000)
        rotation.maximumBatches = maximum == 0 ? nil : maximum
        self.rotation = rotation
    }

    func run() async throws {
        let variables = AppEnvironment.current.variables
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let privacy = try Wiring.privacyConfiguration(variables, database: database)
        let sealer = try WebhookSecretSealer(privacy: privacy)
        let rotation = KEKRotation(
            client: database.admin, privacy: privacy,
            targets: [SubjectKeyRewrap(privacy: privacy), WebhookSecretRewrap(sealer: sealer)],
            configuration: rotation)
        let outcome: KEKRotation.Outcome
        do {
            let plan = try await rotation.check()
            let bar = ProgressBox(plan.toRewrap > 0 ? ProgressBar(total: plan.toRewrap, label: "rotate-kek") : nil)
            outcome = try await rotation.run { bar.update($0) }
            bar.finish()
        } catch let error as PrivacyError {
            throw AppError(.invalidInput, error.message)
        } catch let error as PostgresError where error.sqlState == "42501" {
            throw AppError(
                .invalidInput,
                "rotate-kek changes which KEK wraps each row, which only the schema owner may do: "
                    + "set DATABASE_ADMIN_URL to the owner's URL")
        }
        let out = AppEnvironment.current.writeLine
        out("current key-encryption key: \(privacy.activeKeyID)")
        for (noun, tally) in outcome.targets {
            out("\(noun): rewrapped \(tally.rewrapped), already current \(tally.alreadyCurrent), failed \(tally.failed)")
        }
        let total = outcome.total
        out(
            "total: rewrapped \(total.rewrapped), already current \(total.alreadyCurrent), failed \(total.failed), "
                + "remaining \(total.remaining)")
        if total.failed > 0 {
            throw AppError(
                .incomplete,
                "\(total.failed) wrapped values did not unwrap under their key-encryption key and were "
                    + "left as they were; keep JOURNEYS_KEK_PREVIOUS until they are dealt with")
        }
        if total.remaining > 0 {
            out(
                "stopped after the batch limit: \(total.remaining) still under an older KEK; run 'journeys keys rotate-kek' again"
            )
        } else {
            out("everything is under \(privacy.activeKeyID): the previous KEK can be removed from JOURNEYS_KEK_PREVIOUS")
        }
    }
}
