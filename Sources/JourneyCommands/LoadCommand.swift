import CLI
import Foundation
import JourneyApp

/// `journeys load`: journey starts under Idempotency-Keys, retried as a company's backend would.
struct LoadCommand: Command {
    static let configuration = CommandConfiguration(
        name: "load", summary: "Start journeys from N clients, retrying each Idempotency-Key until a final answer.",
        discussion: """
            Each client sends POST /v1/journeys (a random valid CPF, clientReference load-<key>, its digits written as the letters g-p) under a \
            fresh Idempotency-Key and retries that key every --retry-interval seconds until a final answer \
            (2xx, or a 4xx other than 408/409/425/429), then takes a new key. The load ends after --duration \
            or when --stop-file exists; pending keys retry for up to --drain seconds more. --report gets \
            every attempt as JSON (times in seconds since 1970); ops/fault-suite.sh judges it.
            """,
        options: [
            .required("base-url", valueName: "URL", help: "The service, e.g. http://127.0.0.1:8080."),
            .required("api-key", valueName: "KEY", help: "An API key with journeys:write."),
            .optional("clients", valueName: "N", help: "Concurrent clients.", default: "8"),
            .optional("duration", valueName: "S", help: "Seconds during which clients start new keys.", default: "60"),
            .optional("retry-interval", valueName: "S", help: "Seconds between the attempts of one key.", default: "1"),
            .optional("key-interval", valueName: "S", help: "Least seconds between a client's new keys.", default: "1"),
            .optional("drain", valueName: "S", help: "Seconds pending keys keep retrying after the load ends.", default: "60"),
            .optional("request-timeout", valueName: "S", help: "Seconds one request may take.", default: "20"),
            .optional("environment", valueName: "ENV", help: "The journeys' environment (UAT or PROD).", default: "UAT"),
            .optional("stop-file", valueName: "FILE", help: "End the load once this file exists."),
            .optional(
                "status-file", valueName: "FILE",
                help: "Rewritten every 0.25 s: waiting=N oldest=S finished=N stopped=0|1."),
            .optional("report", valueName: "FILE", help: "Write the report (JSON) here."),
        ])
    let configuration: LoadDriver.Configuration
    let report: String?

    init(arguments: ParsedArguments) throws {
        var configuration = LoadDriver.Configuration(
            baseURL: try arguments.httpURL("base-url"),
            apiKey: try arguments.string("api-key"))
        configuration.clients = try arguments.int("clients", in: 1...256)
        configuration.duration = try arguments.double("duration", in: 0...86_400)
        configuration.retryInterval = try arguments.double("retry-interval", in: 0.05...600)
        configuration.keyInterval = try arguments.double("key-interval", in: 0...600)
        configuration.drain = try arguments.double("drain", in: 0...3_600)
        configuration.requestTimeout = try arguments.double("request-timeout", in: 0.1...600)
        configuration.environment = try arguments.choice("environment", as: LoadEnvironment.self).rawValue
        configuration.stopFile = try arguments.optionalString("stop-file")
        configuration.statusFile = try arguments.optionalString("status-file")
        self.configuration = configuration
        report = try arguments.optionalString("report")
    }

    func run() async throws {
        let result = await LoadDriver(configuration: configuration).run()
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do {
                try encoder.encode(result).write(to: URL(fileURLWithPath: report))
            } catch {
                throw CommandFailure("could not write --report \(report): \(error.localizedDescription)")
            }
        }
        let out = AppEnvironment.current.writeLine
        out(
            "\(result.keys.count) keys from \(result.clients) clients in "
                + String(format: "%.1f s", result.endedAt - result.startedAt)
                + ": \(result.acknowledged.count) acknowledged (2xx), \(result.unresolved.count) without a final answer")
        var table = TextTable(columns: ["status", .init("answers", alignment: .right)])
        for (status, count) in result.statusCounts.sorted(by: { Int($0.key) ?? 0 < Int($1.key) ?? 0 }) {
            table.append([status == "0" ? "no answer" : status, String(count)])
        }
        out(table.render())
    }
}

/// The environments `journeys load` may start journeys in.
enum LoadEnvironment: String, CaseIterable {
    case uat = "UAT"
    case prod = "PROD"
}
