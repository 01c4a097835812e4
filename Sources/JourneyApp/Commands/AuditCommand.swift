import CLI
import EventStore

/// `journeys audit`: tamper evidence.
struct AuditCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "audit", summary: "Verify the hash-chained log.", subcommands: [AuditVerify.self])
}

struct AuditVerify: Command {
    static let configuration = CommandConfiguration(
        name: "verify", summary: "Recompute every stream's hash chain; exit 3 at the first broken link.",
        discussion: "Hashes are recomputed outside the database from each event's canonical content.")
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        var bar: ProgressBar? = nil
        let total = try await database.app.query("SELECT count(*) FROM events").first?.decode(0, as: Int.self) ?? 0
        if total > 50_000 { bar = ProgressBar(total: total, label: "verify") }
        let progressBar = ProgressBox(bar)
        let report = try await ChainVerifier(client: database.app).verify { done in progressBar.update(done) }
        progressBar.finish()
        let out = AppEnvironment.current.writeLine
        out("streams=\(report.streams) events=\(report.events)")
        if let broken = report.firstBreak {
            throw AppError(.chainBroken, "hash chain broken at \(broken)")
        }
        out("hash chains intact")
    }
}
