import Audit
import Cryptography
import EventStore
import Foundation
import JourneyDomain
import JourneyTesting
import Testing

@Suite struct AuditCommandTests {
    @Test func keygenCheckpointVerifyAndDetection() async throws {
        try await TestDatabase.with { db in
            let folder = try temporaryFolder()
            let keyPath = folder + "/audit.pem"
            let made = await journeys(["audit", "keygen", "--output", keyPath])
            #expect(made.code == 0, "\(made.error)")
            let mode = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            #expect(FileManager.default.fileExists(atPath: keyPath + ".pub"))
            let again = await journeys(["audit", "keygen", "--output", keyPath])
            #expect(again.code != 0)
            #expect(again.error.contains("already exists"))
            let env = [AuditKeys.Configuration.signingKeyVariable: keyPath]

            let id = JourneyID(UUID().uuidString.lowercased())
            try await record(approvedOnSecondAttempt(id), journey: id, db: db)
            try await db.waitUntilReadable()

            let unsigned = await journeys(["audit", "checkpoint"], database: db)
            #expect(unsigned.code == 1)
            #expect(unsigned.error.contains(AuditKeys.Configuration.signingKeyVariable))
            let signed = await journeys(["audit", "checkpoint"], database: db, extra: env)
            #expect(signed.code == 0, "\(signed.error)")
            #expect(signed.output.contains("checkpoint 1 signed: streams=1"))
            let verified = await journeys(["audit", "verify", "--sign"], database: db, extra: env)
            #expect(verified.code == 0, "\(verified.error)")
            #expect(verified.output.contains("hash chains intact"))
            #expect(verified.output.contains("checkpoints intact"))
            #expect(verified.output.contains("checkpoint 2 signed"))

            // A verifier holding only the public key.
            let publicOnly = await journeys(
                ["audit", "verify"], database: db,
                extra: [AuditKeys.Configuration.publicKeysVariable: keyPath + ".pub"])
            #expect(publicOnly.code == 0, "\(publicOnly.error)")
            #expect(publicOnly.output.contains("checkpoints=2 last=2"))

            // A verifier that trusts no key: the stored public keys are not evidence (exit 4), unless allowed.
            let unpinned = await journeys(["audit", "verify"], database: db)
            #expect(unpinned.code == 4)
            #expect(unpinned.output.contains("not configured as trusted"))
            let allowed = await journeys(["audit", "verify", "--allow-unpinned-keys"], database: db)
            #expect(allowed.code == 0, "\(allowed.error)")
            #expect(allowed.output.contains("warning: 2 checkpoint(s) signed by keys not configured as trusted"))

            // A forged checkpoint (another key) fails verification with its id and exit 4.
            _ = try await SignedCheckpointStore(client: db.app).create(signingWith: Ed25519PrivateKey.generate())
            let forged = await journeys(["audit", "verify"], database: db, extra: env)
            #expect(forged.code == 4)
            #expect(forged.output.contains("checkpoint 3 FAILED"))
            #expect(forged.error.contains("checkpoint(s) 3"))

            // An altered event: exit 3 naming the stream and version.
            try await tamper(
                db,
                """
                UPDATE events SET data = jsonb_set(data, '{attempt}', '9')
                WHERE stream_name = '\(StreamName.journey(id.rawValue).rawValue)' AND stream_version = 4
                """)
            let broken = await journeys(["audit", "verify"], database: db, extra: env)
            #expect(broken.code == 3)
            #expect(broken.error.contains("stream \(StreamName.journey(id.rawValue).rawValue) version 4"))
            #expect(broken.output.contains("checkpoint 3 FAILED"))
            let refused = await journeys(["audit", "checkpoint"], database: db, extra: env)
            #expect(refused.code == 3)
            #expect(refused.error.contains("no checkpoint signed"))
        }
    }

    @Test func exportWritesAnEvidenceBundle() async throws {
        try await TestDatabase.with { db in
            let key = Ed25519PrivateKey.generate()
            let folder = try temporaryFolder()
            let keyPath = folder + "/k.pem"
            try Data(try key.pemPKCS8.utf8).write(to: URL(fileURLWithPath: keyPath))
            let env = [AuditKeys.Configuration.signingKeyVariable: keyPath]
            let id = JourneyID(UUID().uuidString.lowercased())
            let commands = approvedOnSecondAttempt(id)
            let versions = try await record(Array(commands.dropLast()), journey: id, db: db)
            try await db.waitUntilReadable()
            let checkpoint = try await SignedCheckpointStore(client: db.app).create(signingWith: key)
            try await record([commands.last!], journey: id, db: db)

            let output = folder + "/bundle.json"
            let exported = await journeys(["audit", "export", id.rawValue, "--output", output], database: db, extra: env)
            #expect(exported.code == 0, "\(exported.error)")
            #expect(exported.output.contains("chain intact, checkpoint \(checkpoint.id)"))
            let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let bundle = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let recorded = try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue))
            let events = try #require(bundle["events"] as? [[String: Any]])
            #expect(bundle["journeyId"] as? String == id.rawValue)
            #expect(events.count == recorded.count)
            #expect(events.map { $0["hash"] as? String } == recorded.map { Hex.encode($0.hash) })
            #expect(events.first?["previousHash"] as? String == String(repeating: "0", count: 64))
            let verification = try #require(bundle["verification"] as? [String: Any])
            #expect(verification["intact"] as? Bool == true)
            #expect(verification["events"] as? Int == recorded.count)
            #expect((bundle["state"] as? [String: Any])?["status"] as? String == "completed")

            // The checkpoint covers the events up to its cut; its signature checks with the bundled key.
            let signed = try #require(bundle["checkpoint"] as? [String: Any])
            #expect(signed["id"] as? Int == Int(checkpoint.id))
            #expect(signed["signatureValid"] as? Bool == true)
            #expect(signed["keyTrusted"] as? Bool == true)
            #expect(signed["streamHeadVersion"] as? Int == Int(versions.last!))
            #expect(versions.last! < Int64(recorded.count))
            let pem = try #require(signed["publicKeyPEM"] as? String)
            let publicKey = try Ed25519PublicKey(pem: pem)
            let payload = try #require(signed["payload"] as? String)
            let signatureHex = try #require(signed["signature"] as? String)
            let signature = try #require(Hex.decode(signatureHex))
            #expect(publicKey.isValidSignature(signature, for: Data(payload.utf8)))
            #expect(publicKey == key.publicKey)

            // Recomputing the hashes from the bundle alone reproduces them.
            #expect(StreamChain.verify(recorded).intact)
            for secret in ["12345678909", "Maria"] { #expect(!String(decoding: data, as: UTF8.self).contains(secret)) }

            // Standard output without --output, and a tampered stream shows as broken in the bundle.
            try await tamper(
                db,
                """
                UPDATE events SET actor = 'mallory' WHERE stream_name = '\(StreamName.journey(id.rawValue).rawValue)' AND stream_version = 2
                """)
            let printed = await journeys(["audit", "export", id.rawValue], database: db)
            #expect(printed.code == 0, "\(printed.error)")
            let again = try #require(try JSONSerialization.jsonObject(with: Data(printed.output.utf8)) as? [String: Any])
            let broken = try #require(again["verification"] as? [String: Any])
            #expect(broken["intact"] as? Bool == false)
            #expect(broken["brokenAtVersion"] as? Int == 2)
            #expect((again["checkpoint"] as? [String: Any])?["keyTrusted"] as? Bool == false)
        }
    }

    @Test func badInputForEachCommand() async throws {
        try await TestDatabase.with { db in
            let folder = try temporaryFolder()
            let unknown = await journeys(["audit", "export", UUID().uuidString], database: db)
            #expect(unknown.code == 1)
            #expect(unknown.error.contains("no journey"))
            let noFile = await journeys(["audit", "export", "j1", "--output", ""], database: db)
            #expect(noFile.code == 64)
            let garbage = folder + "/garbage.pem"
            try Data("not a key".utf8).write(to: URL(fileURLWithPath: garbage))
            for command in [["audit", "checkpoint"], ["audit", "verify"], ["audit", "export", "j1"]] {
                let result = await journeys(command, database: db, extra: [AuditKeys.Configuration.signingKeyVariable: garbage])
                #expect(result.code == 1, "\(command)")
                #expect(result.error.contains(AuditKeys.Configuration.signingKeyVariable), "\(command)")
                #expect(!result.error.contains("not a key"))
            }
            let missing = await journeys(
                ["audit", "verify"], database: db,
                extra: [AuditKeys.Configuration.publicKeysVariable: folder + "/none.pub"])
            #expect(missing.code == 1)
            #expect(missing.error.contains("cannot read key file"))
            let noKey = await journeys(["audit", "verify", "--sign"], database: db)
            #expect(noKey.code == 1)
            #expect(noKey.error.contains("--sign needs a signing key"))
            let noOutput = await journeys(["audit", "keygen"])
            #expect(noOutput.code != 0)
            let badFolder = await journeys(["audit", "keygen", "--output", folder + "/missing/dir/k.pem"])
            #expect(badFolder.code == 1)
        }
    }
}
