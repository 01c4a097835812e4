#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who else may use a private key file, checked before it is read (issue 23).
///
/// Refused: a file that is not a regular file, or that its group or other users may write (a
/// swapped key signs for someone else). Warned about on standard error: a file other users may
/// read, or its group may read when the owner is not root (PostgreSQL's rule for its TLS key:
/// `0600` owned by the service's user, or `0640` owned by root with the service's group, as
/// ops/RUNBOOK.md installs them). The message names the setting and the path, never the key.
public enum KeyFileAccess {
    public enum Verdict: Sendable, Equatable {
        case fine
        case warning(String)
        case refused(String)
    }

    /// The verdict for the file at `path` (followed if a link), named `setting` in messages.
    public static func check(_ path: String, setting: String) -> Verdict {
        var info = stat()
        guard stat(path, &info) == 0 else { return .fine }  // unreadable: the caller's read says so
        let mode = info.st_mode
        guard mode & S_IFMT == S_IFREG else {
            return .refused("\(setting): \(path) is not a regular file")
        }
        let octal = String(mode & 0o777, radix: 8)
        if mode & (S_IWGRP | S_IWOTH) != 0 {
            return .refused(
                "\(setting): \(path) is writable by its group or other users (mode \(octal)): "
                    + "chmod go-w \(path) (0600 owned by the service's user, or 0640 owned by root)")
        }
        if mode & (S_IROTH | S_IXOTH) != 0 || (info.st_uid != 0 && mode & (S_IRGRP | S_IXGRP) != 0) {
            return .warning(
                "\(setting): \(path) is readable by other users (mode \(octal), owner uid \(info.st_uid)): "
                    + "make it 0600 owned by the service's user, or 0640 owned by root with the service's group")
        }
        return .fine
    }

    /// Checks `path`: returns the refusal's message to throw, prints a warning to standard error.
    public static func refusal(_ path: String, setting: String) -> String? {
        switch check(path, setting: setting) {
        case .fine:
            return nil
        case .warning(let message):
            let line = Array("journeys: warning: \(message)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            return nil
        case .refused(let message):
            return message
        }
    }
}
