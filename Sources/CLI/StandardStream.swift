import Foundation

/// Standard output or standard error, writable from any task.
///
/// Writes go straight to the file descriptor after flushing stdio, so they keep their order
/// with `print`. Conforms to `TextOutputStream`: `print(x, to: &stream)` works on a copy.
public struct StandardStream: Sendable, TextOutputStream {
    /// Standard output (file descriptor 1).
    public static let output = StandardStream(fileDescriptor: STDOUT_FILENO)
    /// Standard error (file descriptor 2).
    public static let error = StandardStream(fileDescriptor: STDERR_FILENO)

    /// The file descriptor written to.
    public let fileDescriptor: Int32

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Whether the stream is a terminal, e.g. to decide on `\r` redraws or colour.
    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }

    /// Writes `text` as is; errors such as a closed pipe are ignored.
    public func write(_ text: String) {
        guard !text.isEmpty else { return }
        fflush(nil)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Writes `text` followed by a newline.
    public func writeLine(_ text: String) {
        write(text + "\n")
    }
}
