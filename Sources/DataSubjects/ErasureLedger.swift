import ErrorCodes
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Timestamps

/// The erasure ledger: an append-only file outside the database, one line per erasure request
/// (`<RFC 3339 time>\t<subject reference>\t<requested by>`), written and fsynced *before* the key is
/// wiped. A restore to a point before an erasure brings the subject's key back; replaying the
/// ledger's lines since the restore point (`journeys subjects erase <ref>`, idempotent) erases them
/// again. It holds no personal data: references are HMAC pseudonyms, actors are `cli`, `api-key:…`
/// or a retention policy. Set by `JOURNEYS_ERASURE_LEDGER` (a file path); unset, nothing is written.
public struct ErasureLedger: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The ledger named by `JOURNEYS_ERASURE_LEDGER`, nil when unset or empty.
    public static func fromEnvironment(_ environment: [String: String]) -> ErasureLedger? {
        guard let path = environment["JOURNEYS_ERASURE_LEDGER"], !path.isEmpty else { return nil }
        return ErasureLedger(path: path)
    }

    /// Appends one line and fsyncs it; throws (and the erasure does not start) when it cannot.
    public func append(subject: String, requestedBy: String, at time: Date) throws {
        let actor = requestedBy.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
        let line = "\(RFC3339.string(from: time))\t\(subject)\t\(actor)\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw ErasureLedgerError(message: "cannot open the erasure ledger \(path) (errno \(errno))") }
        defer { close(fd) }
        let bytes = Array(line.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            throw ErasureLedgerError(message: "cannot write the erasure ledger \(path) (errno \(errno))")
        }
    }
}

/// The erasure ledger could not be written: the erasure did not start (a server fault, not the caller's).
public struct ErasureLedgerError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The ledger file could not be opened or written and synced.
        public static let ledgerUnwritable = Code(rawValue: "erasure_ledger_unwritable")
    }

    public var code: Code { .ledgerUnwritable }
    public let message: String
    /// The message alone.
    public var description: String { message }
}
