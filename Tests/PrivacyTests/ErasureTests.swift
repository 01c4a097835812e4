import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
import Privacy
import Testing

@Suite struct ErasureTests {
    @Test func erasedSubjectCannotBeOpenedNorSealedAndOthersAreUnaffected() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let (erased, kept) = (someSubject(), someSubject())
            let sealed = try await vault.seal("Maria", field: PersonalDataField.name, subject: erased)
            let other = try await vault.seal("João", field: PersonalDataField.name, subject: kept)

            let result = try await vault.erase(subject: erased)
            #expect(result.subject == erased)
            #expect(!result.wasAlreadyErased)
            #expect(try await vault.isErased(subject: erased))
            #expect(try await vault.isErased(subject: kept) == false)

            let openError =
                await captureError {
                    try await vault.open(sealed, field: PersonalDataField.name, subject: erased)
                } as? PrivacyError
            #expect(openError?.code == .subjectErased)
            let sealError =
                await captureError {
                    try await vault.seal("Maria", field: PersonalDataField.name, subject: erased)
                } as? PrivacyError
            #expect(sealError?.code == .subjectErased)
            #expect(try await vault.open(other, field: PersonalDataField.name, subject: kept) == "João")

            // The row stays as a tombstone without key material.
            let row = try #require(
                try await db.owner.query(
                    """
                    SELECT wrapped_key IS NULL, erased_at IS NOT NULL FROM subject_keys WHERE subject_ref = \(erased.rawValue)
                    """
                ).first)
            #expect(try row.decode(0, as: Bool.self) && row.decode(1, as: Bool.self))
        }
    }

    @Test func erasureIsIdempotent() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let subject = someSubject()
            _ = try await vault.seal("12345678909", field: PersonalDataField.documentNumber, subject: subject)
            let first = try await vault.erase(subject: subject)
            let second = try await vault.erase(subject: subject)
            #expect(second.wasAlreadyErased)
            #expect(second.erasedAt == first.erasedAt)
            // Concurrent erasures: exactly one does the work.
            let other = someSubject()
            _ = try await vault.seal("x", field: PersonalDataField.name, subject: other)
            let results = try await withThrowingTaskGroup(of: ErasureResult.self) { group in
                for _ in 0..<8 { group.addTask { try await vault.erase(subject: other) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { !$0.wasAlreadyErased }.count == 1)
            #expect(Set(results.map(\.erasedAt)).count == 1)
        }
    }

    @Test func erasingAnUnknownSubjectFailsWithoutCreatingIt() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let subject = someSubject()
            let error = await captureError { try await vault.erase(subject: subject) } as? PrivacyError
            #expect(error?.code == .unknownSubject)
            #expect(try await db.owner.query("SELECT count(*) FROM subject_keys").first?.decode(0, as: Int.self) == 0)
        }
    }

    @Test func erasureInThisProcessDropsTheCachedKeyAtOnce() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration(cacheLifetime: .seconds(30)))
            let subject = someSubject()
            let sealed = try await vault.seal("Maria", field: PersonalDataField.name, subject: subject)
            #expect(try await vault.open(sealed, field: PersonalDataField.name, subject: subject) == "Maria")
            _ = try await vault.erase(subject: subject)
            let error =
                await captureError {
                    try await vault.open(sealed, field: PersonalDataField.name, subject: subject)
                } as? PrivacyError
            #expect(error?.code == .subjectErased)
        }
    }

    @Test func erasureByAnotherProcessReachesACachingProcessWithinTheCacheLifetime() async throws {
        try await TestDatabase.with { db in
            let clock = TestClock()
            let settings = try configuration(cacheLifetime: .seconds(30))
            let caching = SubjectVault(client: db.app, configuration: settings, now: clock.instants)
            let operator_ = SubjectVault(client: db.app, configuration: settings)
            let subject = someSubject()
            let sealed = try await caching.seal("Maria", field: PersonalDataField.name, subject: subject)
            _ = try await operator_.erase(subject: subject)

            // The documented window: the cached key still opens until its entry expires.
            clock.advance(by: 29)
            #expect(try await caching.open(sealed, field: PersonalDataField.name, subject: subject) == "Maria")
            clock.advance(by: 2)
            let error =
                await captureError {
                    try await caching.open(sealed, field: PersonalDataField.name, subject: subject)
                } as? PrivacyError
            #expect(error?.code == .subjectErased)
        }
    }

    @Test func theHashChainStillVerifiesAfterErasureAndTheLogHoldsNoPlaintext() async throws {
        try await TestDatabase.with { db in
            let vault = SubjectVault(client: db.app, configuration: try configuration())
            let person = ValidatedSubject(
                documentType: .brCPF, documentNumber: "12345678909", name: "Maria da Conceição",
                phone: "+5511987654321", email: "maria@example.com")
            let sealed = try await vault.seal(person)
            let token = try await vault.seal("ht_secret_value", field: PersonalDataField.humanToken, subject: sealed.reference)
            let documents = [try JSONB(encoding: sealed), try JSONB(encoding: ["humanToken": token])]
            let ids = [UUID(), UUID()]
            let nulls: [UUID?] = [nil, nil]
            try await db.app.query(
                """
                SELECT * FROM append_events(\("journey-1"), 0, \(ids)::uuid[], \(["JourneyStarted", "ResultFetched"])::text[],
                    \(documents)::jsonb[], \(nulls)::uuid[], \(nulls)::uuid[], \([String?](repeating: nil, count: 2))::text[])
                """)

            let plaintexts = ["12345678909", "Maria", "987654321", "maria@example.com", "ht_secret_value"]
            for plaintext in plaintexts {
                let hits = try await db.app.query("SELECT count(*) FROM events WHERE data::text LIKE '%' || \(plaintext) || '%'")
                #expect(try hits.first?.decode(0, as: Int.self) == 0, "\(plaintext)")
            }

            _ = try await vault.erase(subject: sealed.reference)
            let check = try #require(
                try await db.app.query(
                    """
                    SELECT bool_and(hash = event_hash(previous_hash, stream_name, stream_version, event_id, event_type, data,
                                                      correlation_id, causation_id, actor, recorded_at)),
                           bool_and(linked), count(*)
                    FROM (SELECT *, previous_hash = coalesce(lag(hash) OVER (PARTITION BY stream_name ORDER BY stream_version),
                                                             previous_hash) AS linked
                          FROM events) chained
                    """
                ).first)
            #expect(try check.decode(0, as: Bool.self))
            #expect(try check.decode(1, as: Bool.self))
            #expect(try check.decode(2, as: Int.self) == 2)
            let error = await captureError { try await vault.open(sealed) } as? PrivacyError
            #expect(error?.code == .subjectErased)
        }
    }
}
