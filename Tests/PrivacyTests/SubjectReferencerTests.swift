import Cryptography
import Foundation
import JourneyDomain
import Privacy
import Testing

@Suite struct SubjectReferencerTests {
    let referencer = SubjectReferencer(key: .random())

    @Test func referencesAreStableKeyedAndOpaque() throws {
        let key = SecretKey.random()
        let a = try SubjectReferencer(key: key).reference(documentType: .brCPF, documentNumber: "12345678909")
        let b = try SubjectReferencer(key: key).reference(documentType: .brCPF, documentNumber: "12345678909")
        #expect(a == b)
        #expect(a.rawValue.count == 64)
        #expect(Hex.decode(a.rawValue)?.count == 32)
        #expect(!a.rawValue.contains("12345678909"))
        let otherKey = try SubjectReferencer(key: .random()).reference(documentType: .brCPF, documentNumber: "12345678909")
        #expect(otherKey != a)
        // Not a plain hash that anyone could recompute from a guessed CPF.
        #expect(a.rawValue != SHA256.hexDigest("12345678909"))
        #expect(a.rawValue != SHA256.hexDigest("DUI_TYPE_BR_CPF12345678909"))
    }

    @Test func differentNumbersAndTypesGiveDifferentReferences() throws {
        let numbers = ["12345678909", "12345678900", "98765432100", "012345678909"]
        let refs = try numbers.map { try referencer.reference(documentType: .brCPF, documentNumber: $0) }
        #expect(Set(refs).count == numbers.count)
        let rg = try referencer.reference(documentType: DocumentType(rawValue: "DUI_TYPE_BR_RG"), documentNumber: "12345678909")
        #expect(!refs.contains(rg))
        // Framing keeps type and number apart: moving characters across the boundary differs.
        let x = try referencer.reference(documentType: DocumentType(rawValue: "T1"), documentNumber: "23")
        let y = try referencer.reference(documentType: DocumentType(rawValue: "T"), documentNumber: "123")
        #expect(x != y)
    }

    @Test func eachTenantButTheDefaultOneHasItsOwnReferences() throws {
        let before = try referencer.reference(documentType: .brCPF, documentNumber: "12345678909")
        #expect(
            try referencer.reference(documentType: .brCPF, documentNumber: "12345678909", tenant: "default") == before,
            "the default tenant keeps the references of before tenants")
        let acme = try referencer.reference(documentType: .brCPF, documentNumber: "12345678909", tenant: "acme")
        let globex = try referencer.reference(documentType: .brCPF, documentNumber: "12345678909", tenant: "globex")
        #expect(Set([before, acme, globex]).count == 3)
        #expect(try referencer.reference(documentType: .brCPF, documentNumber: "123.456.789-09", tenant: "acme") == acme)
    }

    @Test func formattingDoesNotChangeTheReference() throws {
        let plain = try referencer.reference(documentType: .brCPF, documentNumber: "12345678909")
        for formatted in ["123.456.789-09", " 123 456 789 09 ", "123456789/09", "１２３４５６７８９０９"] {
            #expect(try referencer.reference(documentType: .brCPF, documentNumber: formatted) == plain, "\(formatted)")
        }
        #expect(SubjectReferencer.normalize(documentNumber: "mg-12.345.678-x") == "MG12345678X")
        let subject = ValidatedSubject(documentType: .brCPF, documentNumber: "12345678909")
        #expect(try referencer.reference(for: subject) == plain)
    }

    @Test func aNumberWithoutLettersOrDigitsIsRefusedWithoutEchoingIt() {
        for input in ["", "  ", ".-/", "—"] {
            let error = #expect(throws: PrivacyError.self) {
                try referencer.reference(documentType: .brCPF, documentNumber: input)
            }
            #expect(error?.code == .invalidDocumentNumber)
        }
    }

    @Test func theConfiguredKeyIsUsed() throws {
        let settings = try configuration()
        let direct = try SubjectReferencer(key: settings.subjectReferenceKey).reference(documentType: .brCPF, documentNumber: "1")
        #expect(try SubjectReferencer(configuration: settings).reference(documentType: .brCPF, documentNumber: "1") == direct)
    }
}
