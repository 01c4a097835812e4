import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
import Privacy
import Testing

@Suite struct RotationTests {
    @Test func keysWrappedUnderAPreviousKEKStillOpenAndNewKeysUseTheActiveOne() async throws {
        try await TestDatabase.with { db in
            let (old, new, referenceKey) = (SecretKey.random(), SecretKey.random(), SecretKey.random())
            let before = SubjectVault(
                client: db.app, configuration: try configuration(keyID: "2025-01", key: old, referenceKey: referenceKey))
            let early = someSubject()
            let sealedBefore = try await before.seal("12345678909", field: PersonalDataField.documentNumber, subject: early)

            let after = SubjectVault(
                client: db.app,
                configuration: try configuration(
                    keyID: "2026-01", key: new, previous: ["2025-01": old], referenceKey: referenceKey))
            #expect(try await after.open(sealedBefore, field: PersonalDataField.documentNumber, subject: early) == "12345678909")
            // The early subject keeps its key (wrapped under the old KEK) for new seals too.
            let sealedAfter = try await after.seal("Maria", field: PersonalDataField.name, subject: early)
            #expect(try await before.open(sealedAfter, field: PersonalDataField.name, subject: early) == "Maria")

            let late = someSubject()
            _ = try await after.seal("João", field: PersonalDataField.name, subject: late)
            let ids = try await db.owner.query("SELECT subject_ref, kek_id FROM subject_keys")
            let byRef = Dictionary(
                uniqueKeysWithValues: try ids.map { (try $0.decode(0, as: String.self), try $0.decode(1, as: String.self)) })
            #expect(byRef == [early.rawValue: "2025-01", late.rawValue: "2026-01"])
        }
    }

    @Test func aKEKNoLongerConfiguredIsUnknownKeyID() async throws {
        try await TestDatabase.with { db in
            let before = SubjectVault(client: db.app, configuration: try configuration(keyID: "2025-01"))
            let subject = someSubject()
            let sealed = try await before.seal("Maria", field: PersonalDataField.name, subject: subject)
            let after = SubjectVault(client: db.app, configuration: try configuration(keyID: "2026-01"))
            let error =
                await captureError { try await after.open(sealed, field: PersonalDataField.name, subject: subject) }
                as? PrivacyError
            #expect(error?.code == .unknownKeyID)
            #expect(error?.message.contains("2025-01") == true)
        }
    }

    @Test func aWrongKEKUnderTheRightIdFailsToUnwrap() async throws {
        try await TestDatabase.with { db in
            let right = SubjectVault(client: db.app, configuration: try configuration(keyID: "k1"))
            let subject = someSubject()
            let sealed = try await right.seal("Maria", field: PersonalDataField.name, subject: subject)
            let wrong = SubjectVault(client: db.app, configuration: try configuration(keyID: "k1"))
            let error =
                await captureError { try await wrong.open(sealed, field: PersonalDataField.name, subject: subject) }
                as? PrivacyError
            #expect(error?.code == .decryptionFailed)
        }
    }

    @Test func aWrappedKeyCopiedToAnotherSubjectsRowDoesNotUnwrap() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let (victim, attacker) = (someSubject(), someSubject())
            let sealed = try await vault.seal("Maria", field: PersonalDataField.name, subject: victim)
            // Even the owner, copying the victim's wrapped key to a new row, gains nothing.
            try await db.owner.query(
                """
                INSERT INTO subject_keys (subject_ref, wrapped_key, kek_id)
                SELECT \(attacker.rawValue), wrapped_key, kek_id FROM subject_keys WHERE subject_ref = \(victim.rawValue)
                """)
            let moved = SealedField(ciphertext: sealed.ciphertext, keyID: attacker.rawValue)
            let error =
                await captureError { try await vault.open(moved, field: PersonalDataField.name, subject: attacker) }
                as? PrivacyError
            #expect(error?.code == .decryptionFailed)
        }
    }
}
