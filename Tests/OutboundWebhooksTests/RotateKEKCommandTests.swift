import AccessControl
import Cryptography
import Foundation
import JourneyCommands
import JourneyDomain
import JourneyTesting
import OutboundWebhooks
import Postgres
import Privacy
import Testing

/// `journeys keys rotate-kek` end to end, in-process: subject keys and webhook secrets move from KEK A to KEK B.
@Suite struct RotateKEKCommandTests {
    let kekA = SecretKey.random()
    let kekB = SecretKey.random()
    let referenceKey = Base64URL.encode(SecureRandom.bytes(32))

    /// A deployment's variables with `kek` current (no JOURNEYS_KEK_ID: the id is the KEK's short hash).
    func variables(_ kek: SecretKey, previous: String? = nil, database: TestDatabase) -> [String: String] {
        var variables = [
            "JOURNEYS_KEK": kek.base64URLEncoded, "JOURNEYS_SUBJECT_REF_KEY": referenceKey,
            "JOURNEYS_WEBHOOK_ALLOW_HOSTS": "127.0.0.1",
            "DATABASE_URL": database.appURL, "DATABASE_ADMIN_URL": database.ownerURL,
        ]
        variables["JOURNEYS_KEK_PREVIOUS"] = previous
        return variables
    }

    func journeys(_ arguments: [String], _ variables: [String: String]) async -> (code: Int32, output: String, error: String) {
        await JourneysCommand.run(arguments, variables: variables)
    }

    /// Two webhook endpoints and five subjects sealed under KEK A.
    func seedUnderA(_ db: TestDatabase) async throws -> (
        secrets: [(UUID, WebhookSecret)], sealed: [(SubjectReference, SealedField)]
    ) {
        var secrets: [(UUID, WebhookSecret)] = []
        for name in ["partner one", "partner two"] {
            let key = try await APIKeyStore(client: db.app).create(name: name, scopes: [.journeysWrite]).key
            let set = await journeys(
                ["webhooks", "set", key.prefix, "--url", "https://hooks.example.com/\(key.prefix)"],
                variables(kekA, database: db))
            #expect(set.code == 0, "\(set.error)")
            let line = { (label: String) in
                set.output.split(separator: "\n").first { $0.hasPrefix(label + ":") }.map {
                    $0.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces)
                } ?? ""
            }
            secrets.append(
                (try #require(UUID(uuidString: String(line("endpoint").prefix(36)))), try #require(WebhookSecret(line("secret"))))
            )
        }
        let vault = SubjectVault(
            client: db.app, configuration: try PrivacyConfiguration.fromEnvironment(variables(kekA, database: db)))
        var sealed: [(SubjectReference, SealedField)] = []
        for index in 0..<5 {
            let subject = SubjectReference(Hex.encode(SecureRandom.bytes(32)))
            sealed.append((subject, try await vault.seal("Maria \(index)", field: PersonalDataField.name, subject: subject)))
        }
        return (secrets, sealed)
    }

    /// Everything opens with KEK B alone.
    func expectEverythingOpens(
        _ db: TestDatabase, _ seeded: (secrets: [(UUID, WebhookSecret)], sealed: [(SubjectReference, SealedField)]),
        with environment: [String: String]
    ) async throws {
        let privacy = try PrivacyConfiguration.fromEnvironment(environment)
        let vault = SubjectVault(client: db.app, configuration: privacy)
        for (index, (subject, field)) in seeded.sealed.enumerated() {
            #expect(try await vault.open(field, field: PersonalDataField.name, subject: subject) == "Maria \(index)")
        }
        let sealer = try WebhookSecretSealer(privacy: privacy)
        for (endpoint, secret) in seeded.secrets {
            let row = try #require(
                try await db.app.query(
                    "SELECT secret_sealed, secret_key_id FROM webhook_endpoints WHERE id = \(endpoint)"
                ).first)
            #expect(try sealer.open(try row.decode(0), keyID: try row.decode(1), endpointID: endpoint) == secret)
        }
    }

    func snapshot(_ db: TestDatabase) async throws -> [String] {
        let keys = try await db.owner.query(
            "SELECT subject_ref || kek_id || encode(wrapped_key, 'hex') FROM subject_keys ORDER BY 1")
        let secrets = try await db.owner.query(
            "SELECT id::text || secret_key_id || encode(secret_sealed, 'hex') FROM webhook_endpoints ORDER BY 1")
        return try (keys.map { try $0.decode(0, as: String.self) }) + secrets.map { try $0.decode(0, as: String.self) }
    }

    @Test func rotateFromAToBThenRemoveA() async throws {
        try await TestDatabase.with { db in
            let seeded = try await seedUnderA(db)
            let rotate = variables(kekB, previous: kekA.base64URLEncoded, database: db)

            // A run stopped after two batches of two (as a crash would), then finished by the next run.
            let partial = await journeys(["keys", "rotate-kek", "--batch-size", "2", "--max-batches", "2"], rotate)
            #expect(partial.code == 0, "\(partial.error)")
            #expect(partial.output.contains("subject keys: rewrapped 4, already current 0, failed 0"), "\(partial.output)")
            #expect(partial.output.contains("remaining 3") && partial.output.contains("run 'journeys keys rotate-kek' again"))
            try await expectEverythingOpens(db, seeded, with: rotate)

            let finished = await journeys(["keys", "rotate-kek", "--batch-size", "2"], rotate)
            #expect(finished.code == 0, "\(finished.error)")
            #expect(finished.output.contains("subject keys: rewrapped 1, already current 4, failed 0"), "\(finished.output)")
            #expect(finished.output.contains("webhook secrets: rewrapped 2, already current 0, failed 0"))
            #expect(finished.output.contains("total: rewrapped 3, already current 4, failed 0, remaining 0"))
            #expect(finished.output.contains("current key-encryption key: \(PrivacyConfiguration.keyID(of: kekB))"))
            #expect(finished.output.contains("can be removed"))
            for material in [kekA, kekB] { #expect(!(finished.output + finished.error).contains(material.base64URLEncoded)) }

            // A is gone from the configuration: everything still opens.
            try await expectEverythingOpens(db, seeded, with: variables(kekB, database: db))
            let again = await journeys(["keys", "rotate-kek"], variables(kekB, database: db))
            #expect(
                again.code == 0 && again.output.contains("total: rewrapped 0, already current 7"),
                "\(again.output) \(again.error)")
        }
    }

    @Test func aMissingOrWrongPreviousKEKIsAClearErrorAndChangesNothing() async throws {
        try await TestDatabase.with { db in
            let seeded = try await seedUnderA(db)
            let before = try await snapshot(db)
            let idA = PrivacyConfiguration.keyID(of: kekA)

            let missing = await journeys(["keys", "rotate-kek"], variables(kekB, database: db))
            #expect(missing.code == 64)
            #expect(missing.error.contains("JOURNEYS_KEK_PREVIOUS is not set") && missing.error.contains(idA), "\(missing.error)")
            #expect(missing.error.contains("5 subject keys and 2 webhook secrets"), "\(missing.error)")

            // A wrong key without an id gets another short hash: its id is not the one in use.
            let wrongBare = await journeys(
                ["keys", "rotate-kek"], variables(kekB, previous: SecretKey.random().base64URLEncoded, database: db))
            #expect(
                wrongBare.code == 64 && wrongBare.error.contains("JOURNEYS_KEK_PREVIOUS does not hold it"), "\(wrongBare.error)")
            // A wrong key under the right id does not unwrap the sampled rows.
            let wrongKey = SecretKey.random()
            let wrongNamed = await journeys(
                ["keys", "rotate-kek"],
                variables(kekB, previous: "\(idA):\(wrongKey.base64URLEncoded)", database: db))
            #expect(wrongNamed.code == 64, "\(wrongNamed.error)")
            #expect(wrongNamed.error.contains("JOURNEYS_KEK_PREVIOUS") && wrongNamed.error.contains("nothing was changed"))
            #expect(!wrongNamed.error.contains(wrongKey.base64URLEncoded))

            #expect(try await snapshot(db) == before)
            try await expectEverythingOpens(db, seeded, with: variables(kekA, database: db))
            let help = await journeys(["keys", "rotate-kek", "--help"], [:])
            #expect(help.code == 0 && help.output.contains("JOURNEYS_KEK_PREVIOUS") && help.output.contains("--max-batches"))
        }
    }

    @Test func theApplicationRoleIsToldToUseTheOwner() async throws {
        try await TestDatabase.with { db in
            _ = try await seedUnderA(db)
            var asApp = variables(kekB, previous: kekA.base64URLEncoded, database: db)
            asApp["DATABASE_ADMIN_URL"] = db.appURL
            let refused = await journeys(["keys", "rotate-kek"], asApp)
            #expect(refused.code == 64 && refused.error.contains("DATABASE_ADMIN_URL"), "\(refused.error)")
        }
    }
}
