import Foundation
import Testing

/// Runs the `openssl` command line in a private temporary directory, for cross-checks.
final class OpenSSLCLI {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("crypto-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
    func write(_ name: String, _ data: Data) throws { try data.write(to: url(name)) }
    func write(_ name: String, _ text: String) throws { try write(name, Data(text.utf8)) }
    func read(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }
    func readText(_ name: String) throws -> String { String(decoding: try read(name), as: UTF8.self) }

    /// Runs `openssl arguments...` in the directory and returns its exit status and combined output.
    @discardableResult
    func run(_ arguments: String...) throws -> (status: Int32, output: String) {
        try execute(arguments)
    }

    /// Runs `openssl` and fails the test (with its output) if it exits non-zero.
    func mustRun(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try execute(arguments)
        try #require(
            result.status == 0, "openssl \(arguments.joined(separator: " ")) failed: \(result.output)",
            sourceLocation: sourceLocation)
    }

    private func execute(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
