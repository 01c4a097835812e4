import ErrorCodes
import Postgres

/// Applies the numbered files of `schema/` in order, each in its own transaction, recording
/// each with its checksum in `schema_migrations`; refuses to run when an applied file changed.
public struct Migrator: Sendable {
    public let files: [MigrationFile]

    public init(files: [MigrationFile] = SchemaFiles.all) {
        self.files = files
    }

    /// What `migrate` would do or did.
    public struct Report: Sendable, Equatable {
        public var applied: [String] = []
        public var alreadyApplied: [String] = []
    }

    /// Applies pending migrations. Concurrent migrators wait on a transaction-level advisory lock
    /// that each step (the bookkeeping table, then each file) takes in its own transaction and
    /// re-reads what is applied under it, so nothing session-level is needed (PgBouncer-safe).
    @discardableResult
    public func migrate(_ client: PostgresClient) async throws -> Report {
        let files = try sortedFiles()
        return try await client.withConnection { connection in
            try connection.transaction { connection in
                try connection.execute(unsafeSQL: MigrationsStatements.lock)
                try Self.ensureTable(connection)
                try Self.checkUnchanged(files, applied: try Self.appliedChecksums(connection))
            }
            var report = Report()
            for file in files {
                let ran = try connection.transaction { connection -> Bool in
                    try connection.execute(unsafeSQL: MigrationsStatements.lock)
                    guard try Self.appliedChecksums(connection)[file.name] == nil else { return false }
                    do {
                        try connection.execute(unsafeSQL: file.sql)
                        try connection.query(
                            MigrationsStatements.recordApplied(
                                version: file.version ?? 0, name: file.name, checksum: file.checksum))
                    } catch let error as PostgresError {
                        throw MigrationError(.migrationFailed, "\(file.name) failed and was rolled back: \(error.message)")
                    }
                    return true
                }
                if ran { report.applied.append(file.name) } else { report.alreadyApplied.append(file.name) }
            }
            return report
        }
    }

    /// The files not yet applied; throws when an applied file was changed.
    public func pending(_ client: PostgresClient) async throws -> [String] {
        let files = try sortedFiles()
        return try await client.withConnection { connection in
            let exists = try connection.query(MigrationsStatements.tableExists)
            guard try exists.first?.decode(0, as: Bool.self) == true else { return files.map(\.name) }
            let applied = try Self.appliedChecksums(connection)
            try Self.checkUnchanged(files, applied: applied)
            return files.filter { applied[$0.name] == nil }.map(\.name)
        }
    }

    func sortedFiles() throws -> [MigrationFile] {
        var seen = Set<Int>()
        for file in files {
            guard let version = file.version else {
                throw MigrationError(.invalidFile, "\(file.name) does not start with a number (e.g. 0002_name.sql)")
            }
            guard seen.insert(version).inserted else {
                throw MigrationError(.invalidFile, "two migration files share the number \(version)")
            }
        }
        return files.sorted { ($0.version ?? 0) < ($1.version ?? 0) }
    }

    static func ensureTable(_ connection: PostgresConnection) throws {
        try connection.execute(unsafeSQL: MigrationsStatements.createTable)
    }

    static func appliedChecksums(_ connection: PostgresConnection) throws -> [String: String] {
        var applied: [String: String] = [:]
        for row in try connection.query(MigrationsStatements.applied) {
            applied[try row.decode(0, as: String.self)] = try row.decode(1, as: String.self)
        }
        return applied
    }

    static func checkUnchanged(_ files: [MigrationFile], applied: [String: String]) throws {
        for file in files {
            if let checksum = applied[file.name], checksum != file.checksum {
                throw MigrationError(
                    .checksumMismatch,
                    "\(file.name) was changed after it was applied (checksum \(checksum.prefix(12)) in the database, \(file.checksum.prefix(12)) now); add a new migration instead"
                )
            }
        }
    }
}

/// A migration failure with a stable code.
public struct MigrationError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let checksumMismatch = Code(rawValue: "migration_checksum_mismatch")
        public static let migrationFailed = Code(rawValue: "migration_failed")
        public static let invalidFile = Code(rawValue: "migration_invalid_file")
    }

    public let code: Code
    public let message: String
    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    /// The message alone.
    public var description: String { message }
}
