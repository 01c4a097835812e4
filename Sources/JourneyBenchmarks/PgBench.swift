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
            throw EmbeddedPostgresError(
                .binariesNotFound,
                "pgbench not found at \(path); install postgresql (apt-get install -y postgresql) or set PG_BINDIR")
        }
        self.path = path
        self.clients = clients
        self.seconds = seconds
        directory = NSTemporaryDirectory() + "journeys-pgbench-\(getpid())"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        var options: [String] = []
        for key in ["host", "hostaddr", "port", "user", "dbname", "sslmode"] {
            if let value = database.option(key) { options.append("\(key)=\(Self.quote(value))") }
        }
        if let password = database.option("password") {
            let passfile = directory + "/pgpass"
            let escaped = password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
            guard
                FileManager.default.createFile(
                    atPath: passfile, contents: Data("*:*:*:*:\(escaped)\n".utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw EmbeddedPostgresError(.commandFailed, "cannot write pgbench's password file \(passfile)")
            }
            options.append("passfile=\(Self.quote(passfile))")
        }
        connection = options.joined(separator: " ")
    }

    /// Runs `script` for the configured time; throws with pgbench's output when it fails.
    func run(script: String) throws -> Figures {
        let scriptPath = directory + "/script.sql"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let threads = max(1, min(clients, ProcessInfo.processInfo.activeProcessorCount))
        let output = try spawn([
            "-n", "-M", "prepared", "-c", String(clients), "-j", String(threads),
            "-T", String(max(1, Int(seconds.rounded()))), "-f", scriptPath, connection,
        ])
        guard output.status == 0, let tps = Self.number(after: "tps = ", in: output.text) else {
            throw EmbeddedPostgresError(.commandFailed, "pgbench failed (exit \(output.status)): \(output.text.suffix(600))")
        }
        return Figures(perSecond: tps, latencyMilliseconds: Self.number(after: "latency average = ", in: output.text) ?? 0)
    }

    /// Runs pgbench with an empty signal mask: `-T` ends on SIGALRM, which the threads of this
    /// process block (and a plain spawn would pass that mask on: pgbench then never stops).
    private func spawn(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let outputPath = directory + "/output.txt"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw EmbeddedPostgresError(.commandFailed, "could not run \(path): error \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
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
