import JourneyDomain
import Testing

/// The one detector of personal data in free text recorded for ever (issue 23): CPF, CNPJ and
/// e-mail shapes everywhere; long numbers (phones, other documents) in prose only.
struct PersonalDataShapeTests {
    static let identifierCases: [(String, PersonalDataShape?)] = [
        ("order-42", nil),
        ("12345678909", .cpf),
        ("123.456.789-09", .cpf),
        ("123456789-09", .cpf),
        ("ref:12345678909", .cpf),
        ("cpf-123.456.789-09-x", .cpf),
        ("11222333000181", .cnpj),
        ("11.222.333/0001-81", .cnpj),
        ("11222333/0001-81", .cnpj),
        ("maria@example.com", .email),
        ("ref/maria.souza@mail.example.com.br", .email),
        ("a@b", nil),
        ("@example.com", nil),
        ("ORD-20261205-143000", nil),  // 8 + 6 digits: a date and a time, not check digits
        ("2026-12-05", nil),
        ("1234567890", nil),  // 10 digits
        ("123456789012", nil),  // 12 digits
        ("1234567890123", nil),  // 13 digits
        ("123456789012345678", nil),  // 18-digit order number
        ("0193a5e2-7c1d-7b3e-9f00-5b1f2a3c4d5e", nil),
        ("order-1+a/2", nil),
        ("v1.2.3-45", nil),
    ]

    static let proseCases: [(String, PersonalDataShape?)] = [
        ("duplicate order", nil),
        ("customer 123.456.789-09 asked", .cpf),
        ("company 11.222.333/0001-81 withdrew", .cnpj),
        ("asked by maria@example.com", .email),
        ("call (11) 98765-4321", .longNumber),
        ("+55 11 98765 4321", .longNumber),
        ("ticket 123456789012", .longNumber),
        ("order 42 withdrawn by the customer", nil),
        ("audit 2026-12-05 by compliance", nil),
        ("erased on request (ticket 4471)", nil),
    ]

    @Test(arguments: identifierCases) func identifiers(_ text: String, _ shape: PersonalDataShape?) {
        #expect(PersonalDataShape.find(in: text, context: .identifier) == shape, "\(text)")
    }

    @Test(arguments: proseCases) func prose(_ text: String, _ shape: PersonalDataShape?) {
        #expect(PersonalDataShape.find(in: text, context: .prose) == shape, "\(text)")
    }

    @Test func theIssueNamesTheFieldAndNeverRepeatsTheValue() throws {
        let issue = try #require(PersonalDataShape.issue("123.456.789-09", field: "clientReference", context: .identifier))
        #expect(issue.field == "clientReference")
        #expect(issue.code == .invalidValue)
        #expect(issue.message.hasPrefix("clientReference must not hold personal data (it looks like a CPF)"))
        #expect(!issue.message.contains("123"))
        #expect(PersonalDataShape.issue("order-42", field: "clientReference", context: .identifier) == nil)
    }

    @Test func theFieldsThatEnterTheLogUseIt() throws {
        guard case .failure(let reference) = FieldRules.clientReference("12345678909") else {
            Issue.record("a CPF as clientReference is refused"); return
        }
        #expect(reference.field == "clientReference")
        guard case .success = FieldRules.clientReference("ORD-20261205-143000") else {
            Issue.record("an order number passes"); return
        }
        guard case .failure(let reason) = JourneyCancellation.checkedReason("call (11) 98765-4321") else {
            Issue.record("a phone number in a cancel reason is refused"); return
        }
        #expect(reason.field == "reason")
    }
}
