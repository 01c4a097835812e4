import Foundation
import JourneyTesting
import Migrations
import Postgres
import Testing

@Suite struct MigrationTests {
    @Test func embeddedFilesMatchTheSchemaFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("schema")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(SchemaFiles.all.map(\.name) == names, "run ops/embed-schema.sh")
        for file in SchemaFiles.all {
            let onDisk = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(file.sql + "\n" == onDisk || file.sql == onDisk, "\(file.name) differs: run ops/embed-schema.sh")
        }
    }

    @Test func appliesPendingFilesOnceInOrder() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let files = [
                MigrationFile(name: "0002_b.sql", sql: "ALTER TABLE a ADD COLUMN note text;"),
                MigrationFile(name: "0001_a.sql", sql: "CREATE TABLE a (id int);"),
            ]
            #expect(try await Migrator(files: files).pending(db.owner) == ["0001_a.sql", "0002_b.sql"])
            let first = try await Migrator(files: files).migrate(db.owner)
            #expect(first.applied == ["0001_a.sql", "0002_b.sql"])
            let second = try await Migrator(files: files).migrate(db.owner)
            #expect(second.applied.isEmpty)
            #expect(second.alreadyApplied.count == 2)
            let rows = try await db.owner.query("SELECT version, name, length(checksum) FROM schema_migrations ORDER BY version")
            #expect(try rows.map { try $0.decode(1, as: String.self) } == ["0001_a.sql", "0002_b.sql"])
            #expect(try rows.first?.decode(2, as: Int.self) == 64)
        }
    }

    @Test func refusesToRunWhenAnAppliedFileChanged() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await Migrator(files: [MigrationFile(name: "0001_a.sql", sql: "CREATE TABLE a (id int);")]).migrate(db.owner)
            let changed = [
                MigrationFile(name: "0001_a.sql", sql: "CREATE TABLE a (id bigint);"),
                MigrationFile(name: "0002_b.sql", sql: "CREATE TABLE b (id int);"),
            ]
            let error = await captureError { try await Migrator(files: changed).migrate(db.owner) } as? MigrationError
            #expect(error?.code == .checksumMismatch)
            #expect(error?.message.contains("0001_a.sql") == true)
            let pendingError = await captureError { try await Migrator(files: changed).pending(db.owner) } as? MigrationError
            #expect(pendingError?.code == .checksumMismatch)
            // Nothing after the refusal ran.
            #expect(try await db.owner.query("SELECT to_regclass('b') IS NULL").first?.decode(0, as: Bool.self) == true)
        }
    }

    @Test func aFailingFileIsRolledBackWhole() async throws {
        try await TestDatabase.with(migrated: false) { db throws in
            let files = [
                MigrationFile(name: "0001_a.sql", sql: "CREATE TABLE a (id int);"),
                MigrationFile(name: "0002_b.sql", sql: "CREATE TABLE b (id int); SELECT no_such_function();"),
            ]
            let error = await captureError { try await Migrator(files: files).migrate(db.owner) } as? MigrationError
            #expect(error?.code == .migrationFailed)
            #expect(error?.message.contains("0002_b.sql") == true)
            #expect(try await db.owner.query("SELECT to_regclass('b') IS NULL").first?.decode(0, as: Bool.self) == true)
            #expect(try await Migrator(files: files).pending(db.owner) == ["0002_b.sql"])
        }
    }

    @Test func badFileNamesAreRefused() async throws {
        try await TestDatabase.with(migrated: false) { db in
            for files in [
                [MigrationFile(name: "init.sql", sql: "SELECT 1")],
                [MigrationFile(name: "0001_a.sql", sql: "SELECT 1"), MigrationFile(name: "0001_b.sql", sql: "SELECT 1")],
            ] {
                let error = await captureError { try await Migrator(files: files).migrate(db.owner) } as? MigrationError
                #expect(error?.code == .invalidFile)
            }
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let owner2 = try PostgresClient(url: db.ownerURL)
            defer { owner2.close() }
            async let a = Migrator().migrate(db.owner)
            async let b = Migrator().migrate(owner2)
            let (first, second) = try await (a, b)
            #expect(first.applied.count + second.applied.count == SchemaFiles.all.count)
        }
    }
}
