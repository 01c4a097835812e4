import CLI

/// `journeys`: the root of the command tree.
public struct JourneysCommand: CommandGroup {
    public static let configuration = CommandConfiguration(
        name: "journeys",
        summary: "Event-sourced orchestrator for Unico Human Token journeys.",
        discussion: """
            Without DATABASE_URL every command uses a private PostgreSQL cluster in \
            .journeys/pg (JOURNEYS_PG_DIR), started and migrated on demand.
            """,
        subcommands: [
            DbCommand.self, MigrateCommand.self, ServeCommand.self, EventsCommand.self, JourneysControlCommand.self,
            AuditCommand.self,
            KeysCommand.self, TenantsCommand.self, SubjectsCommand.self, RetentionCommand.self, WebhooksCommand.self,
            WorkCommand.self, ProjectionsCommand.self, ReportCommand.self,
            EmulatorCommand.self, LoadCommand.self, DemoCommand.self, BenchCommand.self,
        ])
    public init() {}
}
