import JourneyDomain
import Testing

@Suite("CPF and CNPJ check digits")
struct CheckDigitsTests {
    @Test(arguments: ["12345678909", "52998224725", "98765432100", "11144477735"])
    func validCPFs(_ number: String) {
        #expect(CheckDigits.isValidCPF(number))
    }

    @Test(arguments: ["12345678900", "12345678919", "11111111111", "00000000000", "1234567890", "123456789099", "1234567890a"])
    func invalidCPFs(_ number: String) {
        #expect(!CheckDigits.isValidCPF(number))
    }

    @Test(arguments: ["11222333000181", "11444777000161"])
    func validCNPJs(_ number: String) {
        #expect(CheckDigits.isValidCNPJ(number))
    }

    @Test(arguments: ["11222333000180", "11222333000191", "00000000000000", "1122233300018"])
    func invalidCNPJs(_ number: String) {
        #expect(!CheckDigits.isValidCNPJ(number))
    }

    @Test func completingAndRandomNumbersAreValid() {
        #expect(CheckDigits.cpf(completing: "123456789") == "12345678909")
        #expect(CheckDigits.cnpj(completing: "112223330001") == "11222333000181")
        for _ in 0..<200 { #expect(CheckDigits.isValidCPF(CheckDigits.randomCPF())) }
    }

    @Test(arguments: [
        ("DUI_TYPE_BR_CPF", "12345678900"), ("DUI_TYPE_BR_CPF", "11111111111"),
        ("DUI_TYPE_BR_CNPJ", "11222333000180"), ("DUI_TYPE_BR_CNPJ", "12345678909"),
    ])
    func theStartInputNamesTheField(_ type: String, _ number: String) {
        let input = StartJourneyInput(
            environment: "UAT", flow: "humantoken", purpose: "creditprocess",
            subject: SubjectInput(documentType: type, documentNumber: number), clientReference: nil)
        #expect(throws: ValidationError.self) { try input.validated() }
        do {
            _ = try input.validated()
        } catch {
            #expect(error.fields == ["subject.documentNumber"])
        }
    }

    @Test func otherDocumentTypesKeepTheirRules() throws {
        let input = StartJourneyInput(
            environment: "UAT", flow: "humantoken", purpose: "creditprocess",
            subject: SubjectInput(documentType: "DUI_TYPE_BR_RG", documentNumber: "12345678900"),
            clientReference: nil)
        #expect(try input.validated().subject.documentNumber == "12345678900")
    }
}
