import CLI
import DataSubjects
import Foundation
import JourneyApp
import JourneyEngine
import Privacy
import Retention
import Timestamps

/// `journeys retention run`: applies the policy once now, or shows what it would do.
struct RetentionRun: Command {
    static let configuration = CommandConfiguration(
        name: "run", summary: "Apply the retention policy once now (--dry-run: only show what it would do).",
        discussion: """
            Erases each subject whose journeys all ended more than JOURNEYS_RETENTION_ERASE_AFTER_DAYS ago, \
            as `journeys subjects erase` does, with the reason "retention: N days after the last journey \
            ended" in each journey's SubjectErased event; purges stored idempotency answers older than \
            JOURNEYS_RETENTION_IDEMPOTENCY_HOURS; drops the sealed tokens and links of journeys that ended more \
            than JOURNEYS_RETENTION_TOKEN_DAYS ago from the read model (as the journeys_projector role, \
            DATABASE_PROJECTOR_URL; the event log is never changed). Works in batches, each committed on its own: \
            running it again finishes an interrupted run, and a second run finds nothing to do. Shows a \
            progress bar on standard error and the counts at the end. Refused (exit 64) while JOURNEYS_RETENTION=off, \
            except with --dry-run. Sealing keys as for `journeys subjects` (JOURNEYS_KEK, ...).
            """,
        options: [.optional("batch-size", valueName: "N", help: "Subjects, answers or journeys per batch.", default: "200")],
        flags: [
            FlagSpec("dry-run", help: "Change nothing; print what would be erased, purged and dropped."),
            FlagSpec("json", help: "Print the plan or the outcome as one JSON document."),
        ])
    let dryRun: Bool
    let json: Bool
    let batchSize: Int

    init(arguments: ParsedArguments) throws {
        dryRun = try arguments.flag("dry-run")
        json = try arguments.flag("json")
        batchSize = try arguments.int("batch-size", in: 1...100_000)
    }

    func run() async throws {
        let environment = AppEnvironment.current
        var configuration = try Wiring.retentionConfiguration(environment.variables)
        configuration.batchSize = batchSize
        if !configuration.enabled && !dryRun {
            throw AppError(
                .invalidInput,
                "retention is off (\(Retention.Configuration.Variable.enabled)=off): nothing done; "
                    + "unset it or set it to on to apply the policy, or use --dry-run")
        }
        let database = try await Database.open(environment.database, poolSize: 2)
        defer { database.close() }
        let readModels = dryRun ? database.app : try await database.verifiedProjector()
        let privacy = try Wiring.privacyConfiguration(environment.variables, database: database)
        let journeys = JourneyApp.operatorJourneys(database: database, privacy: privacy)
        let engine = journeys.dependencies
        let retention = try JourneyApp.retention(
            configuration, journeys: journeys, ledger: ErasureLedger.fromEnvironment(environment.variables),
            projector: readModels)
        let out = environment.writeLine
        let now = engine.clock()
        let plan = try await retention.plan(now: now)
        if dryRun {
            if json { return out(try SubjectsCommand.json(plan)) }
            out("dry run at \(RFC3339.string(from: now)); nothing changed")
            out(
                "would erase \(plan.subjectsToErase.count) subject(s) whose last journey ended before "
                    + "\(RFC3339.string(from: plan.erasureCutoff)) (reason \"\(configuration.erasureReason)\")")
            for reference in plan.subjectsToErase { out("  subject \(reference)") }
            out(
                "would purge \(plan.idempotencyAnswersToPurge) idempotency answer(s) stored before "
                    + RFC3339.string(from: plan.idempotencyCutoff))
            out(
                "would drop the sealed tokens and links of \(plan.journeysWithTokensToDrop) journey(s) ended before "
                    + RFC3339.string(from: plan.tokenCutoff))
            out(
                "would delete \(plan.idempotencyKeysToDelete) idempotency key(s) answered or released before "
                    + RFC3339.string(from: configuration.idempotencyKeyCutoff(now: now)))
            out(
                "would delete \(plan.webhookDeliveriesToDelete) webhook deliveries delivered or given up before "
                    + RFC3339.string(from: configuration.webhookDeliveryCutoff(now: now)))
            out("total: \(plan.total)")
            return
        }
        let bar = ProgressBox(plan.total > 0 ? ProgressBar(total: plan.total, label: "retention") : nil)
        let outcome: RetentionOutcome
        do {
            outcome = try await retention.apply(now: now) { bar.update($0) }
            bar.finish()
        } catch let error as DataSubjectsError {
            bar.finish()
            throw AppError(.invalidInput, error.message)
        }
        if json { return out(try SubjectsCommand.json(outcome)) }
        out(
            "erased \(outcome.subjectsErased.count) subject(s) (\(outcome.journeysMarked) journey(s) marked SubjectErased, "
                + "reason \"\(outcome.erasureReason)\")"
                + (outcome.subjectsSkipped > 0
                    ? "; \(outcome.subjectsSkipped) left alone (a journey still active or recent in the log)" : ""))
        for reference in outcome.subjectsErased { out("  subject \(reference)") }
        out("purged \(outcome.idempotencyAnswersPurged) idempotency answer(s)")
        out("dropped the sealed tokens and links of \(outcome.journeysWithTokensDropped) journey(s)")
        out(
            "deleted \(outcome.idempotencyKeysDeleted) idempotency key(s) and \(outcome.webhookDeliveriesDeleted) webhook deliveries"
        )
        out("total: \(outcome.total)")
    }
}
