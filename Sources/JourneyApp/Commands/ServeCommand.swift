import CLI
import HTTPServer
import JourneyService

/// `journeys serve`: the HTTP API.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve", summary: "Run the HTTP API until interrupted (graceful shutdown on SIGINT/SIGTERM).",
        discussion: "Serves /healthz, /readyz, /metrics and /openapi.json; journey routes come with the journey service.",
        options: [
            .optional("host", valueName: "ADDR", help: "Listen address.", default: "127.0.0.1"),
            .optional("port", valueName: "P", help: "Listen port (0 picks a free one).", default: "8080"),
        ])
    let host: String
    let port: Int

    init(arguments: ParsedArguments) throws {
        host = try arguments.string("host")
        port = try arguments.int("port", in: 0...65535)
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database)
        defer { database.close() }
        var configuration = JourneyService.Configuration()
        configuration.http.host = host
        configuration.http.port = port
        let service = JourneyService(configuration: configuration, database: database.app)
        try service.start()
        AppEnvironment.current.writeLine("listening on http://\(host):\(service.port ?? port)")
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await service.shutdown()
    }
}
