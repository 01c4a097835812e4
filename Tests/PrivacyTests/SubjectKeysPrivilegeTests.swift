import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
import Privacy
import Testing

@Suite struct SubjectKeysPrivilegeTests {
    @Test func theAppRoleCanNeitherDeleteNorRewriteIdentityColumns() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let subject = someSubject()
            _ = try await vault.seal("x", field: PersonalDataField.name, subject: subject)
            let statements: [PostgresQuery] = [
                "DELETE FROM subject_keys",
                "TRUNCATE subject_keys",
                "UPDATE subject_keys SET subject_ref = 'other'",
                "UPDATE subject_keys SET kek_id = 'other'",
                "UPDATE subject_keys SET created_at = now()",
                "DROP TABLE subject_keys",
                "INSERT INTO subject_keys (subject_ref, kek_id, erased_at) VALUES ('x', 'k1', now())",
                "INSERT INTO subject_keys (subject_ref, wrapped_key, kek_id, created_at) VALUES ('x', '\\x00', 'k1', now())",
            ]
            for statement in statements {
                let error = await captureError { try await db.app.query(statement) } as? PostgresError
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
            }
            #expect(try await db.owner.query("SELECT count(*) FROM subject_keys").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func erasureIsFinalAndALiveKeyCannotBeSwappedEvenByTheOwner() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let (erased, live) = (someSubject(), someSubject())
            _ = try await vault.seal("x", field: PersonalDataField.name, subject: erased)
            let sealed = try await vault.seal("y", field: PersonalDataField.name, subject: live)
            _ = try await vault.erase(subject: erased)
            let key = Data(repeating: 7, count: 60)
            for client in [db.app, db.owner] {
                let statements: [PostgresQuery] = [
                    "UPDATE subject_keys SET wrapped_key = \(key), erased_at = NULL WHERE subject_ref = \(erased.rawValue)",
                    "UPDATE subject_keys SET erased_at = now() - interval '1 day' WHERE subject_ref = \(erased.rawValue)",
                    "UPDATE subject_keys SET wrapped_key = \(key) WHERE subject_ref = \(live.rawValue)",
                ]
                for statement in statements {
                    let error = await captureError { try await client.query(statement) } as? PostgresError
                    #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
                }
            }
            // The constraint keeps key and tombstone exclusive.
            let mixed =
                await captureError {
                    try await db.app.query("UPDATE subject_keys SET erased_at = now() WHERE subject_ref = \(live.rawValue)")
                } as? PostgresError
            #expect(mixed?.code == .checkViolation)
            #expect(try await vault.open(sealed, field: PersonalDataField.name, subject: live) == "y")
        }
    }
}
