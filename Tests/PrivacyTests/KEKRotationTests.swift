import Cryptography
import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
import Privacy
import Testing

/// `KEKRotation` over real `subject_keys`: re-wrap, resume after a stop, refuse a wrong previous KEK.
@Suite struct KEKRotationTests {
    let kekA = SecretKey.random()
    let kekB = SecretKey.random()
    let referenceKey = SecretKey.random()

    func configurationA() throws -> PrivacyConfiguration {
        try configuration(keyID: "kek-a", key: kekA, referenceKey: referenceKey)
    }
    func configurationB(previous: [String: SecretKey] = [:]) throws -> PrivacyConfiguration {
        try configuration(keyID: "kek-b", key: kekB, previous: previous, referenceKey: referenceKey)
    }

    func rotation(_ db: TestDatabase, _ privacy: PrivacyConfiguration, batchSize: Int = 2, maximumBatches: Int? = nil)
        -> KEKRotation
    {
        var settings = KEKRotation.Configuration()
        settings.batchSize = batchSize
        settings.maximumBatches = maximumBatches
        return KEKRotation(
            client: db.owner, privacy: privacy, targets: [SubjectKeyRewrap(privacy: privacy)], configuration: settings)
    }

    /// Seals a name for `count` subjects under `vault`.
    func seal(_ count: Int, _ vault: SubjectVault) async throws -> [(SubjectReference, SealedField)] {
        var sealed: [(SubjectReference, SealedField)] = []
        for index in 0..<count {
            let subject = someSubject()
            sealed.append((subject, try await vault.seal("Maria \(index)", field: PersonalDataField.name, subject: subject)))
        }
        return sealed
    }

    func expectAllOpen(_ sealed: [(SubjectReference, SealedField)], _ vault: SubjectVault) async throws {
        for (index, (subject, field)) in sealed.enumerated() {
            #expect(try await vault.open(field, field: PersonalDataField.name, subject: subject) == "Maria \(index)")
        }
    }

    /// Every row of `subject_keys` as text, to prove nothing changed.
    func snapshot(_ db: TestDatabase) async throws -> [String] {
        try await db.owner.query("SELECT subject_ref, kek_id, encode(wrapped_key, 'hex') FROM subject_keys ORDER BY 1")
            .map {
                "\(try $0.decode(0, as: String.self)) \(try $0.decode(1, as: String.self)) \(try $0.decode(2, as: String?.self) ?? "-")"
            }
    }

    @Test func sealedUnderARotatedToBOpensWithAGone() async throws {
        try await TestDatabase.with { db in
            let sealed = try await seal(7, SubjectVault(client: db.app, configuration: try configurationA()))
            let erased = sealed[3].0
            _ = try await SubjectVault(client: db.app, configuration: try configurationA()).erase(subject: erased)
            let duringRotation = SubjectVault(client: db.app, configuration: try configurationB(previous: ["kek-a": kekA]))
            let late = try await seal(1, duringRotation)

            let outcome = try await rotation(db, try configurationB(previous: ["kek-a": kekA])).run()
            let tally = try #require(outcome.targets.first?.tally)
            #expect(tally.rewrapped == 6 && tally.alreadyCurrent == 1 && tally.failed == 0 && tally.remaining == 0)
            #expect(outcome.isComplete)

            let onlyB = SubjectVault(client: db.app, configuration: try configurationB())
            try await expectAllOpen(sealed, onlyB, skipping: 3)
            try await expectAllOpen(late, onlyB)
            let error =
                await captureError { try await onlyB.open(sealed[3].1, field: PersonalDataField.name, subject: erased) }
                as? PrivacyError
            #expect(error?.code == .subjectErased, "the tombstone stays a tombstone")
            let ids = try await db.owner.query("SELECT DISTINCT kek_id FROM subject_keys WHERE erased_at IS NULL").map {
                try $0.decode(0, as: String.self)
            }
            #expect(ids == ["kek-b"])

            let again = try await rotation(db, try configurationB(previous: ["kek-a": kekA])).run()
            #expect(again.total.rewrapped == 0 && again.total.alreadyCurrent == 7, "a second run has nothing to do")
        }
    }

    func expectAllOpen(_ sealed: [(SubjectReference, SealedField)], _ vault: SubjectVault, skipping: Int) async throws {
        for (index, (subject, field)) in sealed.enumerated() where index != skipping {
            #expect(try await vault.open(field, field: PersonalDataField.name, subject: subject) == "Maria \(index)")
        }
    }

    @Test func aRotationStoppedMidwayIsFinishedByTheNextRunWithNothingLost() async throws {
        try await TestDatabase.with { db in
            let sealed = try await seal(9, SubjectVault(client: db.app, configuration: try configurationA()))
            let both = try configurationB(previous: ["kek-a": kekA])

            // The "crash": the run stops after two committed batches of two.
            let first = try await rotation(db, both, maximumBatches: 2).run()
            #expect(first.total.rewrapped == 4 && first.total.remaining == 5 && !first.isComplete)
            let counts = try await db.owner.query("SELECT kek_id, count(*) FROM subject_keys GROUP BY 1 ORDER BY 1")
                .map { "\(try $0.decode(0, as: String.self))=\(try $0.decode(1, as: Int64.self))" }
            #expect(counts == ["kek-a=5", "kek-b=4"], "batches are committed one by one")
            // Half-way, reads work with the previous KEK configured.
            try await expectAllOpen(sealed, SubjectVault(client: db.app, configuration: both))

            let second = try await rotation(db, both, batchSize: 3).run()
            #expect(second.total.rewrapped == 5 && second.total.alreadyCurrent == 4 && second.isComplete)
            try await expectAllOpen(sealed, SubjectVault(client: db.app, configuration: try configurationB()))
        }
    }

    @Test func aMissingOrWrongPreviousKEKChangesNothing() async throws {
        try await TestDatabase.with { db in
            let sealed = try await seal(5, SubjectVault(client: db.app, configuration: try configurationA()))
            let before = try await snapshot(db)

            let missing = await captureError { try await rotation(db, try configurationB()).run() } as? PrivacyError
            #expect(missing?.code == .unknownKeyID)
            #expect(missing?.message.contains("JOURNEYS_KEK_PREVIOUS is not set") == true, "\(missing?.message ?? "")")
            #expect(missing?.message.contains("5 subject keys") == true && missing?.message.contains("kek-a") == true)

            let wrong =
                await captureError {
                    try await rotation(db, try configurationB(previous: ["kek-a": .random()])).run()
                } as? PrivacyError
            #expect(wrong?.code == .decryptionFailed)
            #expect(
                wrong?.message.contains("JOURNEYS_KEK_PREVIOUS") == true && wrong?.message.contains("nothing was changed") == true
            )
            for material in [kekA, kekB] {
                #expect(wrong?.message.contains(material.base64URLEncoded) == false)
            }
            #expect(try await snapshot(db) == before)
            try await expectAllOpen(sealed, SubjectVault(client: db.app, configuration: try configurationA()))
        }
    }

    @Test func aRowThatDoesNotUnwrapIsCountedAndLeftAsItWas() async throws {
        try await TestDatabase.with { db in
            let sealed = try await seal(4, SubjectVault(client: db.app, configuration: try configurationA()))
            let garbage = someSubject()
            try await db.owner.query(
                """
                INSERT INTO subject_keys (subject_ref, wrapped_key, kek_id) VALUES (\(garbage.rawValue), \(SecureRandom.bytes(60)), 'kek-a')
                """)
            let outcome = try await rotation(db, try configurationB(previous: ["kek-a": kekA])).run()
            #expect(outcome.total.rewrapped == 4 && outcome.total.failed == 1 && outcome.total.remaining == 0)
            let row = try await db.owner.query("SELECT kek_id FROM subject_keys WHERE subject_ref = \(garbage.rawValue)")
            #expect(try row.first?.decode(0, as: String.self) == "kek-a")
            try await expectAllOpen(sealed, SubjectVault(client: db.app, configuration: try configurationB()))
        }
    }
}
