import Cryptography
import Foundation
import Privacy
import Testing

@Suite struct PrivacyConfigurationTests {
    let kek = SecretKey.random()
    let previous = SecretKey.random()
    let referenceKey = SecretKey.random()

    var environment: [String: String] {
        [
            "JOURNEYS_KEK": kek.base64URLEncoded,
            "JOURNEYS_KEK_ID": "2026-01",
            "JOURNEYS_KEK_PREVIOUS": "2025-01:\(previous.base64URLEncoded), 2024.07:\(SecretKey.random().base64URLEncoded),",
            "JOURNEYS_SUBJECT_REF_KEY": referenceKey.base64URLEncoded,
        ]
    }

    @Test func readsEveryVariable() throws {
        let settings = try PrivacyConfiguration.fromEnvironment(environment)
        #expect(settings.activeKeyID == "2026-01")
        #expect(settings.keyEncryptionKeys.keys.sorted() == ["2024.07", "2025-01", "2026-01"])
        #expect(settings.dataKeyCacheLifetime == .seconds(30))
        #expect(!settings.isDevelopment)
        let reference = try SubjectReferencer(configuration: settings).reference(documentType: .brCPF, documentNumber: "1")
        #expect(try SubjectReferencer(key: referenceKey).reference(documentType: .brCPF, documentNumber: "1") == reference)
        var withoutPrevious = environment
        withoutPrevious["JOURNEYS_KEK_PREVIOUS"] = nil
        #expect(try PrivacyConfiguration.fromEnvironment(withoutPrevious).keyEncryptionKeys.count == 1)
    }

    @Test func errorsNameTheVariableAndNeverEchoKeyMaterial() {
        let secret = SecretKey.random().base64URLEncoded
        let short = SecretKey.random(byteCount: 16).base64URLEncoded
        let cases: [(String, String?, String)] = [
            ("JOURNEYS_KEK", nil, "JOURNEYS_KEK is not set"),
            ("JOURNEYS_KEK", "  ", "JOURNEYS_KEK is not set"),
            ("JOURNEYS_KEK", secret + "+/", "JOURNEYS_KEK is not valid base64url"),
            ("JOURNEYS_KEK", String(secret.prefix(20)), "JOURNEYS_KEK: key-encryption key must be 32 bytes"),
            ("JOURNEYS_KEK_ID", "has space " + secret, "JOURNEYS_KEK_ID: key id must be"),
            ("JOURNEYS_SUBJECT_REF_KEY", nil, "JOURNEYS_SUBJECT_REF_KEY is not set"),
            ("JOURNEYS_SUBJECT_REF_KEY", short, "JOURNEYS_SUBJECT_REF_KEY must hold at least 32 bytes"),
            (
                "JOURNEYS_SUBJECT_REF_KEY", kek.base64URLEncoded,
                "JOURNEYS_SUBJECT_REF_KEY must differ from every key-encryption key"
            ),
            ("JOURNEYS_KEK_PREVIOUS", secret + "!", "JOURNEYS_KEK_PREVIOUS entry 1 is not valid base64url"),
            ("JOURNEYS_KEK_PREVIOUS", "a:\(secret),b:\(secret)!", "JOURNEYS_KEK_PREVIOUS entry 2 is not valid base64url"),
            ("JOURNEYS_KEK_PREVIOUS", "2026-01:\(secret)", "JOURNEYS_KEK_PREVIOUS entry 1 repeats a key id"),
            ("JOURNEYS_KEK_PREVIOUS", "a:\(short)", "JOURNEYS_KEK_PREVIOUS entry 1: key-encryption key must be 32 bytes"),
        ]
        for (variable, value, expected) in cases {
            var variables = environment
            variables[variable] = value
            let error = #expect(throws: PrivacyError.self, "\(variable)") {
                try PrivacyConfiguration.fromEnvironment(variables)
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")")
            for material in [
                secret, short, kek.base64URLEncoded, referenceKey.base64URLEncoded,
                previous.base64URLEncoded,
            ] {
                #expect(error?.message.contains(material) == false)
                #expect(error?.description.contains(material) == false)
            }
        }
    }

    @Test func withoutAnIdAKEKIsNamedByAShortHashOfItself() throws {
        var variables = environment
        variables["JOURNEYS_KEK_ID"] = nil
        variables["JOURNEYS_KEK_PREVIOUS"] = "\(previous.base64URLEncoded),2024.07:\(SecretKey.random().base64URLEncoded)"
        let settings = try PrivacyConfiguration.fromEnvironment(variables)
        let id = PrivacyConfiguration.keyID(of: kek)
        #expect(settings.activeKeyID == id)
        #expect(id.hasPrefix("kek-") && id.count == 16 && id != PrivacyConfiguration.keyID(of: previous))
        #expect(PrivacyConfiguration.keyID(of: SecretKey(Base64URL.decode(kek.base64URLEncoded)!)) == id, "stable")
        #expect(settings.keyEncryptionKeys.keys.sorted() == ["2024.07", id, PrivacyConfiguration.keyID(of: previous)].sorted())
        #expect(!id.contains(Hex.encode(Base64URL.decode(kek.base64URLEncoded)!).prefix(12)))
    }

    @Test func descriptionsShowKeyIdsOnly() throws {
        let settings = try PrivacyConfiguration.fromEnvironment(environment)
        var dumped = ""
        dump(settings, to: &dumped)
        for text in [settings.description, String(describing: settings), String(reflecting: settings), dumped] {
            for key in [kek, previous, referenceKey] {
                #expect(!text.contains(key.base64URLEncoded))
                #expect(!text.contains(Hex.encode(Base64URL.decode(key.base64URLEncoded) ?? Data())))
            }
        }
        #expect(settings.description.contains("2026-01"))
        #expect(String(describing: kek) == "SecretKey(32 bytes, redacted)")
    }

    @Test func developmentKeysAreFixedAndMarked() throws {
        let a = PrivacyConfiguration.development(), b = PrivacyConfiguration.development()
        #expect(a.isDevelopment)
        #expect(a.activeKeyID == PrivacyConfiguration.developmentKeyID)
        #expect(a.activeKeyID.contains("insecure"))
        #expect(a.description.contains("development"))
        let ref = { (c: PrivacyConfiguration) in
            try SubjectReferencer(configuration: c).reference(documentType: .brCPF, documentNumber: "1")
        }
        #expect(try ref(a) == ref(b))
    }

    @Test func programmaticConfigurationIsCheckedToo() {
        let short = #expect(throws: PrivacyError.self) {
            try PrivacyConfiguration(activeKeyID: "k", activeKey: SecretKey(Data(count: 16)), subjectReferenceKey: referenceKey)
        }
        #expect(short?.message.hasPrefix("activeKey:") == true)
        let badID = #expect(throws: PrivacyError.self) {
            try PrivacyConfiguration(activeKeyID: "k:1", activeKey: kek, subjectReferenceKey: referenceKey)
        }
        #expect(badID?.message.hasPrefix("activeKeyID:") == true)
        let negative = #expect(throws: PrivacyError.self) {
            try PrivacyConfiguration(
                activeKeyID: "k", activeKey: kek, subjectReferenceKey: referenceKey,
                dataKeyCacheLifetime: .seconds(-1))
        }
        #expect(negative?.code == .invalidConfiguration)
    }
}
