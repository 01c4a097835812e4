import Foundation

/// An executable installed in the same folder as the running one, such as `journeys-bench`
/// beside `journeys`, run in place of this process.
///
/// The folder is that of the running executable's real path (`/proc/self/exe` on Linux), so a
/// symbolic link to the tool elsewhere still finds its siblings.
public struct SiblingExecutable: Sendable, Equatable {
    /// The file name, e.g. `journeys-bench`.
    public var name: String
    /// The folder searched, without a trailing slash.
    public var folder: String

    public init(name: String, folder: String) {
        self.name = name
        self.folder = folder
    }

    /// The sibling named `name` beside the running executable; `nil` when that path is unknown.
    public init?(besideRunningExecutable name: String) {
        guard let executable = Self.runningExecutable() else { return nil }
        self.init(name: name, folder: (executable as NSString).deletingLastPathComponent)
    }

    /// The sibling's path.
    public var path: String { (folder as NSString).appendingPathComponent(name) }

    /// Whether the sibling exists and may be run.
    public var isPresent: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Replaces this process with the sibling, given `arguments` (without the executable name):
    /// standard input, output and error, the environment and the exit code are the sibling's.
    /// Returns only when it could not be run, with the reason (`strerror`).
    public func exec(arguments: [String]) -> String {
        fflush(nil)
        let words = [path] + arguments
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        execv(path, argv)
        return String(cString: strerror(errno))
    }

    /// The real path of the running executable.
    public static func runningExecutable() -> String? {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath().path
    }
}
