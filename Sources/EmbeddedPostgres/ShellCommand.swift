import ErrorCodes
import Foundation

/// Runs a program to completion and captures its output (stdout and stderr together).
public struct ShellCommand: Sendable {
    public struct Output: Sendable {
        public let status: Int32
        public let text: String
    }

    public let executable: String
    public let arguments: [String]

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Runs the command as-is, or through `runuser -u USER --` when `user` is given.
    static func make(_ executable: String, _ arguments: [String], as user: String?) -> ShellCommand {
        guard let user else { return ShellCommand(executable: executable, arguments: arguments) }
        return ShellCommand(executable: "/usr/sbin/runuser", arguments: ["-u", user, "--", executable] + arguments)
    }

    /// Spawns the program with `posix_spawn`, output to a temporary file, and waits with
    /// `waitpid` (Foundation's `Process` can hang waiting for daemonizing children like pg_ctl's).
    @discardableResult
    public func run() throws -> Output {
        let outputPath = NSTemporaryDirectory() + "journeys-cmd-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else is inherited: a daemon started here (postgres via pg_ctl, pgbouncer -d)
        // would otherwise keep, for its whole life, every descriptor the caller had open without
        // close-on-exec, such as the write end of another thread's pipe, whose reader then never
        // sees end of file (a test run once hung on exactly that).
        Self.closeInheritedDescriptors(&actions)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child starts with no blocked signals and the usual ones at their defaults: a spawn
        // inherits the calling thread's mask, and a daemon (pgbouncer -d) started from a thread
        // that blocks SIGTERM could never be stopped.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw EmbeddedPostgresError(.commandFailed, "could not run \(executable): error \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Output(status: exitCode, text: text)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; Swift's Glibc module does not
    /// export it), looked up once.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Adds "close every descriptor from 3 up" to `actions`; without `addclosefrom_np`, closes the
    /// descriptors open now (one opened by another thread meanwhile may still be inherited).
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom = addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// Runs and throws with the command's output when it exits non-zero.
    @discardableResult
    func check(_ what: String) throws -> String {
        let output = try run()
        guard output.status == 0 else {
            throw EmbeddedPostgresError(.commandFailed, "\(what) failed (exit \(output.status)): \(output.text.suffix(800))")
        }
        return output.text
    }
}

/// An embedded-cluster failure with a stable code.
public struct EmbeddedPostgresError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let commandFailed = Code(rawValue: "embedded_command_failed")
        public static let binariesNotFound = Code(rawValue: "postgres_binaries_not_found")
        public static let directoryNotUsable = Code(rawValue: "embedded_directory_not_usable")
        public static let notRunning = Code(rawValue: "embedded_not_running")
    }

    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    /// The message alone.
    public var description: String { message }
}
