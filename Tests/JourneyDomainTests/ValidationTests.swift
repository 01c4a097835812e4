import Foundation
import JourneyDomain
import Testing

@Suite("Start input validation")
struct ValidationTests {
    static let validSubject = SubjectInput(
        documentType: "DUI_TYPE_BR_CPF",
        documentNumber: "12345678909",
        name: "  Maria da Silva ",
        friendlyName: "Maria",
        phone: "+5511987654321",
        email: "maria@example.com.br",
        notificationChannels: ["NOTIFICATION_CHANNEL_SMS", "NOTIFICATION_CHANNEL_EMAIL", "NOTIFICATION_CHANNEL_SMS"]
    )

    static func input(
        environment: String? = "UAT",
        flow: String? = "humantoken",
        purpose: String? = "creditprocess",
        subject: SubjectInput? = validSubject,
        clientReference: String? = "order-42"
    ) -> StartJourneyInput {
        StartJourneyInput(
            environment: environment, flow: flow, purpose: purpose, subject: subject, clientReference: clientReference)
    }

    static func subject(_ change: (inout SubjectInput) -> Void) -> StartJourneyInput {
        var subject = validSubject
        change(&subject)
        return input(subject: subject)
    }

    static func issues(_ input: StartJourneyInput) -> [FieldIssue] {
        do {
            _ = try input.validated()
            return []
        } catch {
            return error.issues
        }
    }

    @Test("valid input becomes typed values; names trimmed, channels deduplicated")
    func valid() throws {
        let validated = try Self.input().validated()
        #expect(validated.environment == .uat)
        #expect(validated.flow == Flow("humantoken"))
        #expect(validated.purpose == .creditProcess)
        #expect(validated.clientReference == "order-42")
        #expect(validated.subject.documentType == .brCPF)
        #expect(validated.subject.documentNumber == "12345678909")
        #expect(validated.subject.name == "Maria da Silva")
        #expect(validated.subject.notificationChannels == [.sms, .email])
    }

    @Test("optional fields may be absent")
    func minimal() throws {
        let subject = SubjectInput(documentType: "DUI_TYPE_BR_CPF", documentNumber: "12345678909")
        let validated = try Self.input(subject: subject, clientReference: nil).validated()
        #expect(validated.subject.phone == nil)
        #expect(validated.clientReference == nil)
    }

    @Test(
        "each invalid field is named, with a stable code",
        arguments: [
            (input(environment: nil), "environment", FieldIssue.Code.required),
            (input(environment: "prod"), "environment", .invalidValue),
            (input(flow: ""), "flow", .required),
            (input(flow: "human token"), "flow", .invalidFormat),
            (input(flow: String(repeating: "f", count: 65)), "flow", .tooLong),
            (input(purpose: "loan"), "purpose", .invalidValue),
            (input(subject: nil), "subject", .required),
            (input(clientReference: ""), "clientReference", .invalidValue),
            (input(clientReference: "has space"), "clientReference", .invalidFormat),
            (input(clientReference: String(repeating: "r", count: 129)), "clientReference", .tooLong),
            (subject { $0.documentType = nil }, "subject.documentType", .required),
            (subject { $0.documentType = "CPF" }, "subject.documentType", .invalidFormat),
            // Unico wants DUI_TYPE_<country>_<name>; the API fuzzer found these passing us and failing Unico.
            (subject { $0.documentType = "DUI_TYPE_0" }, "subject.documentType", .invalidFormat),
            (subject { $0.documentType = "DUI_TYPE_BRCPF" }, "subject.documentType", .invalidFormat),
            (subject { $0.documentNumber = "" }, "subject.documentNumber", .required),
            (subject { $0.documentNumber = "123.456.789-09" }, "subject.documentNumber", .invalidFormat),
            (subject { $0.documentNumber = "1234567890" }, "subject.documentNumber", .invalidFormat),
            (subject { $0.name = "   " }, "subject.name", .invalidValue),
            (subject { $0.name = "Maria\u{0007}" }, "subject.name", .invalidFormat),
            (subject { $0.name = String(repeating: "n", count: 201) }, "subject.name", .tooLong),
            (subject { $0.friendlyName = String(repeating: "a", count: 51) }, "subject.friendlyName", .tooLong),
            (subject { $0.phone = "11 98765-4321" }, "subject.phone", .invalidFormat),
            (subject { $0.phone = "+123456789" }, "subject.phone", .invalidFormat),
            (subject { $0.email = "maria.example.com" }, "subject.email", .invalidFormat),
            (subject { $0.email = "maria@localhost" }, "subject.email", .invalidFormat),
            (subject { $0.email = "ma ria@example.com" }, "subject.email", .invalidFormat),
            (subject { $0.notificationChannels = ["PIGEON"] }, "subject.notificationChannels[0]", .invalidValue),
            (subject { $0.phone = nil }, "subject.phone", .required),
            (subject { $0.email = nil }, "subject.email", .required),
        ]
    )
    func fieldIssue(input: StartJourneyInput, field: String, code: FieldIssue.Code) {
        let issues = Self.issues(input)
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.field == field)
        #expect(issues.first?.code == code)
        #expect(issues.first?.message.hasPrefix(field) == true, "message must name the field: \(issues.first?.message ?? "")")
    }

    @Test("the friendly name may have exactly 50 characters")
    func friendlyNameLimit() throws {
        let input = Self.subject { $0.friendlyName = String(repeating: "é", count: 50) }
        #expect(try input.validated().subject.friendlyName?.count == 50)
    }

    @Test("types other than CPF take digit strings of other lengths")
    func otherDocumentType() throws {
        let input = Self.subject {
            $0.documentType = "DUI_TYPE_BR_RG"
            $0.documentNumber = "123456789"
        }
        #expect(try input.validated().subject.documentType == DocumentType(rawValue: "DUI_TYPE_BR_RG"))
    }

    @Test("every problem is reported at once, in order")
    func many() {
        let input = StartJourneyInput(
            environment: "STAGING",
            flow: nil,
            purpose: "creditprocess",
            subject: SubjectInput(documentType: "DUI_TYPE_BR_CPF", documentNumber: "abc", email: "nope")
        )
        let issues = Self.issues(input)
        #expect(issues.map(\.field) == ["environment", "flow", "subject.documentNumber", "subject.email"])
        #expect(throws: ValidationError.self) { try input.validated() }
    }

    @Test("messages never repeat personal data")
    func noEcho() {
        let input = Self.subject {
            $0.documentNumber = "9876543210x"
            $0.email = "secret-person@nowhere"
            $0.phone = "555-SECRET"
        }
        let error = ValidationError(issues: Self.issues(input))
        #expect(error.fields == ["subject.documentNumber", "subject.phone", "subject.email"])
        for secret in ["9876543210x", "secret-person", "555-SECRET"] {
            #expect(!error.description.contains(secret))
        }
        #expect(error.description.hasPrefix("validation_failed: "))
    }

    @Test("plaintext subjects are redacted in descriptions")
    func redacted() throws {
        let validated = try Self.input().validated()
        for text in [
            String(describing: Self.validSubject), String(describing: validated.subject), String(reflecting: validated.subject),
        ] {
            #expect(!text.contains("12345678909"))
            #expect(!text.contains("Maria"))
        }
    }

    @Test("sealing replaces each personal field and feeds the start command")
    func sealing() throws {
        let validated = try Self.input().validated()
        var sealedValues: [String] = []
        let sealed = validated.subject.sealed(reference: SubjectReference("ref")) { plaintext in
            sealedValues.append(plaintext)
            return SealedField(ciphertext: "c\(sealedValues.count)", keyID: "k")
        }
        #expect(sealedValues == ["12345678909", "Maria da Silva", "Maria", "+5511987654321", "maria@example.com.br"])
        #expect(sealed.documentNumber == SealedField(ciphertext: "c1", keyID: "k"))
        #expect(sealed.email == SealedField(ciphertext: "c5", keyID: "k"))
        #expect(sealed.notificationChannels == [.sms, .email])

        let command = validated.command(journeyID: JourneyID("j"), subject: sealed)
        var scenario = Scenario()
        try scenario.run(.start(command), at: 0)
        #expect(scenario.state.subject == sealed)
        #expect(scenario.state.purpose == .creditProcess)
    }
}
