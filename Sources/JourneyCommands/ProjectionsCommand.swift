import CLI
import EventStore
import Foundation
import JourneyApp
import Lifecycle
import Projections

/// `journeys projections`: the read models built from the log.
struct ProjectionsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "projections", summary: "Run, inspect and rebuild the read models.",
        subcommands: [ProjectionsStatus.self, ProjectionsRun.self, ProjectionsRebuild.self])
}

struct ProjectionsStatus: Command {
    static let configuration = CommandConfiguration(
        name: "status", summary: "Checkpoint and lag (events and seconds) of each projection.")
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        var table = TextTable(columns: [
            "projection", "checkpoint", .init("lag events", alignment: .right),
            .init("lag s", alignment: .right), "updated",
        ])
        for status in try await ProjectionStatus.read(client: database.app) {
            table.append([
                status.name, status.checkpoint.description, String(status.lagEvents),
                String(format: "%.1f", status.lagSeconds), EventJSONLine.timestamp(status.updatedAt),
            ])
        }
        AppEnvironment.current.writeLine(table.render())
    }
}

struct ProjectionsRun: Command {
    static let configuration = CommandConfiguration(
        name: "run", summary: "Apply new events to the read models until interrupted (or once with --once).",
        discussion: "Runs as the journeys_projector role (DATABASE_PROJECTOR_URL; the embedded cluster's by default), "
            + "else as the schema owner (DATABASE_ADMIN_URL); any number may run, one applies at a time.",
        flags: [FlagSpec("once", help: "Catch up once and exit.")])
    let once: Bool
    init(arguments: ParsedArguments) throws { once = try arguments.flag("once") }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let runner = ProjectionRunner(client: database.projector == nil ? database.admin : try await database.verifiedProjector())
        if once {
            let applied = try await runner.catchUp()
            AppEnvironment.current.writeLine("applied \(applied) events")
            return
        }
        try await AppServices.run([.init(service: runner, name: "projections")])
    }
}

struct ProjectionsRebuild: Command {
    static let configuration = CommandConfiguration(
        name: "rebuild", summary: "Rebuild a projection from position zero into fresh tables and swap them in.",
        discussion:
            "The live tables keep answering until the atomic swap. Known: \(ProjectionRebuilder.names.joined(separator: ", ")).",
        positionals: [PositionalSpec("name", help: "The projection to rebuild.")])
    let name: String
    init(arguments: ParsedArguments) throws {
        name = try arguments.string("name")
        guard ProjectionRebuilder.names.contains(name) else {
            throw AppError(
                .invalidInput, "unknown projection '\(name)'; known: \(ProjectionRebuilder.names.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let total = try await JourneyApp.eventStore(on: database.app).eventCount()
        let bar = ProgressBox(ProgressBar(total: max(total, 1), label: "rebuild \(name)"))
        let checkpoint = try await ProjectionRebuilder(client: database.admin).rebuild(name: name) { done, _ in bar.update(done) }
        bar.finish()
        AppEnvironment.current.writeLine("rebuilt \(name) up to \(checkpoint)")
    }
}
