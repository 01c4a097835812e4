import Audit
import Cryptography
import Foundation
import JourneyDomain
import JourneyTesting
import Testing

/// Issue 23: exports are created exclusively (O_EXCL|O_NOFOLLOW, mode 0600) and a signing key
/// file others may write is refused, one others may read is warned about.
@Suite struct ExportAndKeyFileTests {
    @Test func exportsNeverReuseAFileNorFollowALink() async throws {
        try await TestDatabase.with { db in
            let folder = try temporaryFolder()
            let id = UUID().uuidString.lowercased()
            _ = try await record(approvedOnSecondAttempt(JourneyID(id)), journey: JourneyID(id), db: db)

            let existing = folder + "/existing.json"
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
            let overwrite = await journeys(["audit", "export", id, "--output", existing], database: db)
            #expect(overwrite.code == 1)
            #expect(overwrite.error.contains("already exists"))
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")

            let target = folder + "/target.json"
            try Data("target".utf8).write(to: URL(fileURLWithPath: target))
            let link = folder + "/link.json"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let followed = await journeys(["audit", "export", id, "--output", link], database: db)
            #expect(followed.code == 1)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
            let dangling = folder + "/dangling.json"
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/planted.json")
            let planted = await journeys(["audit", "export", id, "--output", dangling], database: db)
            #expect(planted.code == 1)
            #expect(!FileManager.default.fileExists(atPath: folder + "/planted.json"))

            let fresh = folder + "/fresh.json"
            let written = await journeys(["audit", "export", id, "--output", fresh], database: db)
            #expect(written.code == 0, "\(written.error)")
            #expect((try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test func signingKeyFilesOthersMayWriteAreRefused() async throws {
        let folder = try temporaryFolder()
        let path = folder + "/audit.pem"
        try Data(try Ed25519PrivateKey.generate().pemPKCS8.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = AuditKeys.Configuration(signingKeyPath: path)
        for (mode, verdict) in [
            (0o600, "fine"), (0o640, "fine"), (0o400, "fine"), (0o644, "warning"), (0o604, "warning"),
            (0o660, "refused"), (0o602, "refused"), (0o666, "refused"),
        ] {
            chmod(path, mode_t(mode))
            switch KeyFileAccess.check(path, setting: "KEY") {
            case .fine: #expect(verdict == "fine", "\(String(mode, radix: 8))")
            case .warning(let message):
                #expect(verdict == "warning", "\(String(mode, radix: 8))")
                #expect(message.contains("KEY: \(path) is readable by other users"))
            case .refused(let message):
                #expect(verdict == "refused", "\(String(mode, radix: 8))")
                #expect(message.contains("writable by its group or other users"))
            }
            do {
                let keys = try AuditKeys.load(configuration)
                #expect(verdict != "refused" && keys.signingKey != nil, "\(String(mode, radix: 8))")
            } catch {
                #expect(verdict == "refused", "\(String(mode, radix: 8))")
                #expect(error.message.contains(AuditKeys.Configuration.signingKeyVariable))
                #expect(!error.message.contains("PRIVATE KEY"))
            }
        }
        chmod(path, 0o660)
        let refused = await journeys(["audit", "checkpoint"], extra: [AuditKeys.Configuration.signingKeyVariable: path])
        #expect(refused.code == 1)
        #expect(refused.error.contains("chmod go-w"))
        #expect(KeyFileAccess.check(folder, setting: "KEY") == .refused("KEY: \(folder) is not a regular file"))
    }
}
