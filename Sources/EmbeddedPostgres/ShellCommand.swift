import Foundation

/// Runs a program to completion and captures its output.
struct ShellCommand {
    struct Output {
        let status: Int32
        let text: String
    }

    let executable: String
    let arguments: [String]

    /// Runs the command as-is, or through `runuser -u USER --` when `user` is given.
    static func make(_ executable: String, _ arguments: [String], as user: String?) -> ShellCommand {
        guard let user else { return ShellCommand(executable: executable, arguments: arguments) }
        return ShellCommand(executable: "/usr/sbin/runuser", arguments: ["-u", user, "--", executable] + arguments)
    }

    @discardableResult
    func run() throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw EmbeddedPostgresError(.commandFailed, "could not run \(executable): \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
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
public struct EmbeddedPostgresError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        public let rawValue: String
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
    public var description: String { message }
}
