import CLI
import JourneyApp
import Migrations
import Postgres

/// `journeys migrate`: applies the pending files of `schema/` (embedded in the binary).
struct MigrateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "migrate", summary: "Apply pending schema migrations, each in a transaction.",
        discussion: """
            Uses DATABASE_ADMIN_URL (or DATABASE_URL), else the embedded cluster. Refuses to run \
            when a file applied earlier was changed.
            """,
        flags: [FlagSpec("status", help: "Only list pending migrations.")])
    let statusOnly: Bool
    init(arguments: ParsedArguments) throws { statusOnly = try arguments.flag("status") }

    func run() async throws {
        let settings = AppEnvironment.current.database
        let out = AppEnvironment.current.writeLine
        let admin: PostgresClient
        if let url = settings.adminURL ?? settings.url {
            admin = try PostgresClient(url: url, configuration: .init(maxConnections: 1))
        } else {
            admin = try PostgresClient(url: try settings.embedded.start().ownerURL, configuration: .init(maxConnections: 1))
        }
        defer { admin.close() }
        if statusOnly {
            let pending = try await Migrator().pending(admin)
            out(pending.isEmpty ? "up to date" : pending.map { "pending \($0)" }.joined(separator: "\n"))
            return
        }
        let report = try await Migrator().migrate(admin)
        report.applied.forEach { out("applied \($0)") }
        out("\(report.applied.count) applied, \(report.alreadyApplied.count) already applied")
    }
}
