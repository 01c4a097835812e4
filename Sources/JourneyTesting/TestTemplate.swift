import Cryptography
import EmbeddedPostgres
import Foundation
import Synchronization
import Migrations
import Postgres

/// A migrated template database per schema version, from which each test database is copied
/// (`CREATE DATABASE … TEMPLATE`, a file copy) instead of running every migration again.
///
/// The template is named after a digest of the migration files, so a changed schema gets a new
/// one; it is built once per cluster under an advisory lock (test processes may share a cluster)
/// and refuses connections once built, as `CREATE DATABASE … TEMPLATE` requires.
public enum TestTemplate {
    /// `tmpl_` and the first 16 hex digits of the digest of every migration's name and checksum.
    public static let name: String = {
        let manifest = Migrator().files.map { "\($0.name):\($0.checksum)" }.sorted().joined(separator: "\n")
        return "tmpl_" + SHA256.hexDigest(manifest).prefix(16)
    }()

    /// One build per cluster, by socket folder.
    private static let ready = Mutex<[String: TemplateOnce]>([:])

    /// Creates database `database` owned by the schema owner as a copy of the template.
    public static func copy(into database: String, status: EmbeddedPostgres.Status) async throws {
        let once = ready.withLock { ready in
            if let once = ready[status.socketDirectory] { return once }
            let once = TemplateOnce()
            ready[status.socketDirectory] = once
            return once
        }
        try await once.ensure { try await build(status: status) }
        try await TestClusterAdmin.execute(
            JourneyTestingStatements.copyDatabase(database, template: name, owner: EmbeddedPostgres.ownerRole), status: status)
    }

    /// Builds the template unless a complete one exists (another process may be building it). The
    /// admin pool holds one session, so the session-level advisory lock spans the steps.
    static func build(status: EmbeddedPostgres.Status) async throws {
        let admin = try PostgresClient(url: status.superuserURL, configuration: .init(maxConnections: 1))
        defer { admin.close() }
        let lock: Int64 = 7_314_159
        let exists = try await admin.withConnection { connection -> Bool in
            _ = try connection.query(JourneyTestingStatements.lock(lock))
            let template = try connection.query(JourneyTestingStatements.isTemplate(name))
            if try template.first?.decode(0, as: Bool.self) == true { return true }
            // A half-built template of a process that died: start over.
            try connection.execute(unsafeSQL: JourneyTestingStatements.dropDatabase(name))
            try connection.execute(unsafeSQL: JourneyTestingStatements.createDatabase(name, owner: EmbeddedPostgres.ownerRole))
            return false
        }
        do {
            if !exists {
                let owner = try PostgresClient(
                    url: status.url(user: EmbeddedPostgres.ownerRole, database: name),
                    configuration: .init(maxConnections: 1))
                defer { owner.close() }
                _ = try await Migrator().migrate(owner)
            }
        } catch {
            _ = try? await admin.withConnection { _ = try $0.query(JourneyTestingStatements.unlock(lock)) }
            throw error
        }
        try await admin.withConnection { connection in
            defer { _ = try? connection.query(JourneyTestingStatements.unlock(lock)) }
            guard !exists else { return }
            try connection.execute(unsafeSQL: JourneyTestingStatements.markTemplate(name))
            // Sessions of the migration pool may still be ending; a copy needs none.
            _ = try connection.query(JourneyTestingStatements.terminateSessions(name))
        }
    }
}

/// Runs a build once per process; a failed build is retried by the next caller.
final class TemplateOnce: Sendable {
    private let state = Mutex<Task<Void, any Error>?>(nil)

    func ensure(_ build: @escaping @Sendable () async throws -> Void) async throws {
        let task = state.withLock { current in
            if let current { return current }
            let task = Task { try await build() }
            current = task
            return task
        }
        do {
            try await task.value
        } catch {
            state.withLock { if $0 == task { $0 = nil } }
            throw error
        }
    }
}
