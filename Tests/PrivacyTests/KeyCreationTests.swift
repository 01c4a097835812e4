import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
import Privacy
import Testing

@Suite struct KeyCreationTests {
    @Test func concurrentFirstUseFromManyTasksAndProcessesCreatesOneKey() async throws {
        try await TestDatabase.with(poolSize: 8) { db in
            let settings = try configuration(cacheLifetime: .seconds(30))
            // Two vaults on two pools stand for two processes.
            let second = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 8))
            defer { second.close() }
            let vaults = [
                SubjectVault(client: db.app, configuration: settings),
                SubjectVault(client: second, configuration: settings),
            ]
            let subject = someSubject()
            let sealed = try await withThrowingTaskGroup(of: (Int, SealedField).self) { group in
                for n in 0..<48 {
                    group.addTask {
                        (n, try await vaults[n % 2].seal("value \(n)", field: PersonalDataField.name, subject: subject))
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            let rows = try await db.owner.query("SELECT count(*) FROM subject_keys WHERE subject_ref = \(subject.rawValue)")
            #expect(try rows.first?.decode(0, as: Int.self) == 1)
            // A third vault with no cache opens every value: they all used the stored key.
            let fresh = SubjectVault(client: db.app, configuration: try reconfigured(settings))
            for (n, field) in sealed {
                #expect(try await fresh.open(field, field: PersonalDataField.name, subject: subject) == "value \(n)")
            }
        }
    }

    @Test func aKeyCreatedInARolledBackTransactionIsNeitherStoredNorCached() async throws {
        try await TestDatabase.with { db in
            let settings = try configuration(cacheLifetime: .seconds(30))
            let first = SubjectVault(client: db.app, configuration: settings)
            let other = SubjectVault(client: db.app, configuration: settings)
            let subject = someSubject()
            struct Abort: Error {}
            let aborted = await captureError {
                try await db.app.transaction { connection in
                    _ = try first.seal("lost", field: PersonalDataField.name, subject: subject, on: connection)
                    throw Abort()
                }
            }
            #expect(aborted is Abort)
            #expect(try await db.owner.query("SELECT count(*) FROM subject_keys").first?.decode(0, as: Int.self) == 0)
            // Another process creates the key for real; the first must use it, not a phantom.
            let sealed = try await first.seal("kept", field: PersonalDataField.name, subject: subject)
            #expect(try await other.open(sealed, field: PersonalDataField.name, subject: subject) == "kept")
        }
    }

    @Test func theWrappedKeyRowHoldsNoDataKeyInTheClear() async throws {
        try await TestDatabase.with { db in
            let settings = try configuration()
            let vault = SubjectVault(client: db.app, configuration: settings)
            let subject = someSubject()
            _ = try await vault.seal("x", field: PersonalDataField.name, subject: subject)
            let row = try #require(
                try await db.owner.query(
                    """
                    SELECT octet_length(wrapped_key), kek_id, created_at IS NOT NULL, erased_at IS NULL
                    FROM subject_keys WHERE subject_ref = \(subject.rawValue)
                    """
                ).first)
            #expect(try row.decode(0, as: Int.self) == 12 + 32 + 16)
            #expect(try row.decode(1, as: String.self) == "k1")
            #expect(try row.decode(2, as: Bool.self) && row.decode(3, as: Bool.self))
        }
    }
}

/// The same keys with the cache off.
func reconfigured(_ settings: PrivacyConfiguration) throws -> PrivacyConfiguration {
    var copy = settings
    copy.dataKeyCacheLifetime = .zero
    return copy
}
