import EmbeddedPostgres
import Foundation
import Postgres

/// Runs `pgbench -M prepared` with a custom script against a database; the password goes
/// through a private passfile, never the command line.
struct PgBench {
    struct Figures {
        let perSecond: Double
        let latencyMilliseconds: Double
    }

    let path: String
    let connection: String
    let clients: Int
    let seconds: Double
    private let directory: String

    init(path: String, database: PostgresConfiguration, clients: Int, seconds: Double) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EmbeddedPostgresError(.binariesNotFound, "pgbench not found at \(path); install postgresql (apt-get install -y postgresql) or set PG_BINDIR")
        }
        self.path = path
        self.clients = clients
        self.seconds = seconds
        directory = NSTemporaryDirectory() + "journeys-pgbench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var options: [String] = []
        for key in ["host", "hostaddr", "port", "user", "dbname", "sslmode"] {
            if let value = database.option(key) { options.append("\(key)=\(Self.quote(value))") }
        }
        if let password = database.option("password") {
            let passfile = directory + "/pgpass"
            let escaped = password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
            FileManager.default.createFile(atPath: passfile, contents: Data("*:*:*:*:\(escaped)\n".utf8),
                                           attributes: [.posixPermissions: 0o600])
            options.append("passfile=\(Self.quote(passfile))")
        }
        connection = options.joined(separator: " ")
    }

    /// Runs `script` for the configured time; throws with pgbench's output when it fails.
    func run(script: String) throws -> Figures {
        let scriptPath = directory + "/script.sql"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let threads = max(1, min(clients, ProcessInfo.processInfo.activeProcessorCount))
        let output = try ShellCommand(executable: path, arguments: [
            "-n", "-M", "prepared", "-c", String(clients), "-j", String(threads),
            "-T", String(max(1, Int(seconds.rounded()))), "-f", scriptPath, connection,
        ]).run()
        guard output.status == 0, let tps = Self.number(after: "tps = ", in: output.text) else {
            throw EmbeddedPostgresError(.commandFailed, "pgbench failed (exit \(output.status)): \(output.text.suffix(600))")
        }
        return Figures(perSecond: tps, latencyMilliseconds: Self.number(after: "latency average = ", in: output.text) ?? 0)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

    /// The number right after `marker` on pgbench's summary, e.g. `tps = 23456.7 (without ...)`.
    static func number(after marker: String, in text: String) -> Double? {
        guard let range = text.range(of: marker) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// A conninfo value in single quotes, `'` and `\` escaped.
    static func quote(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
