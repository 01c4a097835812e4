import CLI
import Cryptography
import Foundation
import HumanTokenAPI
import JourneyApp
import Lifecycle
import UnicoEmulator

/// `journeys emulator`: a local stand-in for Unico's identity and process APIs.
struct EmulatorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "emulator", summary: "Run the local Unico emulator until interrupted.",
        discussion: """
            Serves the token endpoint, Create/Get Process, the SDK-facing capture endpoints and \
            webhook delivery on 127.0.0.1. Development service accounts for UAT and PROD are \
            generated once into --key-dir; the printed UNICO_* variables point the client at it, with \
            LOOKUP=search (the emulator serves the search by clientReference that Unico does not document).
            """,
        options: [
            .optional("port", valueName: "P", help: "Port (0 picks a free one).", default: "8095"),
            .optional("faults", valueName: "FILE", help: "Fault script (JSON): latency, 5xx/429 rates, webhook faults."),
            .optional("seed", valueName: "N", help: "Seed for fault decisions (deterministic per seed).", default: "1"),
            .optional("key-dir", valueName: "DIR", help: "Where the development private keys live.", default: ".journeys/unico"),
            .optional("rate-limit", valueName: "N", help: "Requests per second per tenant (0 = off).", default: "10"),
            .optional(
                "processes-file", valueName: "FILE",
                help: "On shutdown, write every process it created here, one JSON object a line (no personal data)."),
            .optional(
                "response-shape", valueName: "SHAPE",
                help: "Process answers: wrapped (fields inside \"process\", documented) or flat.",
                default: "wrapped"),
        ])
    let port: Int
    let faults: String?
    let seed: UInt64
    let keyDirectory: String
    let rateLimit: Int
    let processesFile: String?
    let responseShape: UnicoEmulator.ResponseShape

    init(arguments: ParsedArguments) throws {
        port = try arguments.int("port", in: 0...65535)
        faults = try arguments.optionalString("faults")
        seed = UInt64(try arguments.int("seed", in: 0...Int.max))
        keyDirectory = try arguments.string("key-dir")
        rateLimit = try arguments.int("rate-limit", in: 0...100_000)
        processesFile = try arguments.optionalString("processes-file")
        let shape = try arguments.string("response-shape")
        guard let parsed = UnicoEmulator.ResponseShape(rawValue: shape) else {
            throw AppError(.invalidInput, "--response-shape must be wrapped or flat, not \(shape)")
        }
        responseShape = parsed
    }

    func run() async throws {
        let accounts = try DevelopmentAccounts.load(directory: keyDirectory)
        var configuration = try UnicoEmulator.Configuration(
            port: port, faultsFile: faults, seed: seed, serviceAccounts: accounts.map(\.account))
        configuration.acceptsBaseURLAsAudience = true
        configuration.rateLimitPerSecond = rateLimit
        configuration.responseShape = responseShape
        configuration.accessLog = { _ in }
        let emulator = try UnicoEmulator(configuration: configuration)
        try emulator.start()
        let out = AppEnvironment.current.writeLine
        let base = emulator.baseURL?.absoluteString ?? "http://127.0.0.1:\(port)"
        out("Unico emulator listening on \(base)")
        for account in accounts {
            let prefix = "UNICO_\(account.account.environment.rawValue.uppercased())_"
            out("\(prefix)TOKEN_HOST=\(base)")
            out("\(prefix)API_HOST=\(base)")
            out("\(prefix)SERVICE_ACCOUNT=\(account.account.name)")
            out("\(prefix)TENANT=\(account.account.tenantID)")
            out("\(prefix)LOOKUP=\(ProcessLookup.search.rawValue)")
            out("\(prefix)PRIVATE_KEY_FILE=\(account.keyFile)")
        }
        await gracefulShutdown()
        await emulator.shutdown()
        if let processesFile { try Self.write(emulator.processes(), to: processesFile) }
    }

    /// One JSON line per process: id, tenant, environment, clientReference, state, createdAt (seconds since 1970).
    static func write(_ processes: [UnicoEmulator.ProcessRecord], to file: String) throws {
        let lines = try processes.sorted { $0.createdAt < $1.createdAt }.map { process in
            let fields: [String: Any] = [
                "id": process.id, "tenant": process.tenantID, "environment": process.environment.rawValue,
                "clientReference": process.clientReference ?? NSNull(), "state": process.state.rawValue,
                "createdAt": process.createdAt.timeIntervalSince1970,
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
        }
        do {
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("could not write --processes-file \(file): \(error.localizedDescription)")
        }
    }
}

/// Development service accounts kept as PEM files, one per environment.
struct DevelopmentAccounts {
    let account: UnicoEmulator.ServiceAccount
    let keyFile: String

    static func load(directory: String) throws -> [DevelopmentAccounts] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try [UnicoEmulator.Environment.uat, .prod].map { environment in
            let file = URL(fileURLWithPath: directory).appendingPathComponent("\(environment.rawValue.lowercased()).pem").path
            let key: RSAPrivateKey
            if let pem = try? String(contentsOfFile: file, encoding: .utf8) {
                key = try RSAPrivateKey(pem: pem)
            } else {
                let generated = try DevelopmentServiceAccount.generate(environment: environment)
                try generated.writePrivateKey(to: file)
                key = generated.privateKey
            }
            // A tenant per environment: UAT and PROD are separate systems with separate accounts.
            let account = UnicoEmulator.ServiceAccount(
                tenantID: "dev-tenant-\(environment.rawValue.lowercased())",
                name: "journeys", environment: environment,
                publicKey: key.publicKey)
            return DevelopmentAccounts(account: account, keyFile: file)
        }
    }
}
