#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLI
import Foundation

/// Writes an export holding personal or evidence data: created `O_CREAT|O_EXCL|O_NOFOLLOW` with
/// mode 0600 before any byte is written, so it is never readable by others, never follows a link
/// planted at the path, and never overwrites (or reuses the mode of) an existing file.
enum ExclusiveFile {
    static func write(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            let reason =
                code == EEXIST
                ? "it already exists (remove it or choose another path)"
                : code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code))
            throw CommandFailure("cannot create \(path): \(reason)")
        }
        defer { close(fd) }
        var offset = 0
        let total = data.count
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            while offset < total {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, total - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        guard fsync(fd) == 0 else { throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}
