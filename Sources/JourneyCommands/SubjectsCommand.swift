import AccessControl
import CLI
import DataSubjects
import Foundation
import JourneyApp
import JourneyDomain
import JourneyEngine
import Privacy
import Timestamps

/// `journeys subjects`: answer a data-subject request (LGPD Art. 18): find, export, erase.
///
/// Exit codes: 1 unknown subject (naming the reference) or another failure; 64 invalid input.
struct SubjectsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "subjects", summary: "Find a data subject by document, export everything held about them, erase them.",
        discussion: """
            A subject is known by its pseudonymous reference (64 hex characters, an HMAC of the \
            document under JOURNEYS_SUBJECT_REF_KEY); document numbers are never stored or logged. \
            Opening personal data needs the sealing keys (JOURNEYS_KEK, JOURNEYS_KEK_ID, \
            JOURNEYS_SUBJECT_REF_KEY; development keys on the embedded database).
            """,
        subcommands: [SubjectsFind.self, SubjectsExport.self, SubjectsErase.self])

    /// Runs `body` with the data-subject use cases; maps their refusals onto exit codes.
    static func withSubjects<T: Sendable>(_ body: (DataSubjects) async throws -> T) async throws -> T {
        let environment = AppEnvironment.current
        let database = try await Database.open(environment.database, poolSize: 2)
        defer { database.close() }
        let privacy = try Wiring.privacyConfiguration(environment.variables, database: database)
        let journeys = JourneyApp.operatorJourneys(database: database, privacy: privacy)
        do {
            return try await body(
                DataSubjects(journeys: journeys, ledger: ErasureLedger.fromEnvironment(environment.variables)))
        } catch let error as DataSubjectsError {
            throw AppError(error.code == .unknownSubject ? .notFound : .invalidInput, error.message)
        } catch let error as PrivacyError where error.code == .subjectErased {
            throw AppError(.notFound, "subject_erased: \(error.message)")
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A subject reference argument, or exit 64 naming what is wrong (a document given instead, ...).
    static func reference(_ text: String) throws -> SubjectReference {
        do {
            return try SubjectArgument.reference(text, field: "REF")
        } catch let error as DataSubjectsError {
            throw AppError(.invalidInput, error.message)
        }
    }
}

struct SubjectsFind: Command {
    static let configuration = CommandConfiguration(
        name: "find", summary: "Turn a CPF or CNPJ into its subject reference, and list the subject's journeys.",
        discussion: "Give '-' as NUMBER to read it from standard input (keeps it out of the process list). "
            + "The number is never stored, printed or logged.",
        options: [
            .required(
                "document", valueName: "NUMBER",
                help: "The CPF (11 digits) or CNPJ (14), punctuation allowed; '-' reads standard input."),
            .optional(
                "type", valueName: "cpf|cnpj|DUI_TYPE_...", help: "The document type (default: from the number of digits)."),
            .optional("format", valueName: "text|json", help: "Output format.", default: "text"),
            .optional(
                "tenant", valueName: "NAME",
                help: "The tenant whose subject it is (each tenant has its own "
                    + "references).", default: Tenant.defaultName),
        ])
    let document: String
    let type: String?
    let asJSON: Bool
    let tenant: String
    enum Format: String, CaseIterable { case text, json }

    init(arguments: ParsedArguments) throws {
        var document = try arguments.string("document")
        if document == "-" { document = readLine(strippingNewline: true) ?? "" }
        type = try arguments.optionalString("type")
        let format: Format = try arguments.choice("format")
        asJSON = format == .json
        do {
            tenant = try Tenant.validName(try arguments.optionalString("tenant") ?? Tenant.defaultName)
        } catch let error as AccessError {
            throw AppError(.invalidInput, "--tenant: \(error.message)")
        }
        do {
            _ = try SubjectArgument.document(document, type: type, field: "--document", typeField: "--type")
        } catch let error as DataSubjectsError {
            throw AppError(.invalidInput, error.message)
        }
        self.document = document
    }

    func run() async throws {
        let (type, number) = try SubjectArgument.document(document, type: self.type, field: "--document", typeField: "--type")
        let tenant = try await TenantsCommand.withStore { [tenant] in try await $0.existing(tenant) }
        let finding = try await SubjectsCommand.withSubjects {
            try await $0.find(documentType: type, documentNumber: number, tenant: tenant)
        }
        let out = AppEnvironment.current.writeLine
        if asJSON { return out(try SubjectsCommand.json(finding)) }
        out("subject \(finding.subjectReference)")
        guard finding.known else { return out("no data is held for this document") }
        if let erasedAt = finding.erasedAt { out("erased at \(RFC3339.string(from: erasedAt))") }
        out("journeys: \(finding.journeyIds.isEmpty ? "none" : finding.journeyIds.joined(separator: ", "))")
    }
}

struct SubjectsExport: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        summary:
            "Write everything held about a subject (journeys, states, timelines, opened personal data, Human Tokens) as JSON.",
        discussion: """
            The file is written with mode 0600; it holds personal data. Erased values appear as erased \
            markers. Each journey whose data is opened records a PersonalDataDisclosed event (actor cli, \
            the fields, --purpose) and lists its disclosures.
            """,
        options: [
            .optional(
                "output", valueName: "FILE",
                help: "Write to a new FILE (mode 0600; an existing file or a link is refused) instead of standard output."),
            .optional(
                "purpose", valueName: "TEXT",
                help: "Why the data is opened, recorded with each disclosure (1 to 200 characters; no personal data).",
                default: SubjectsExport.defaultPurpose),
        ],
        positionals: [PositionalSpec("ref", help: "The subject reference (see 'journeys subjects find').")])
    static let defaultPurpose = "data subject request"
    let reference: SubjectReference
    let output: String?
    let purpose: String

    init(arguments: ParsedArguments) throws {
        reference = try SubjectsCommand.reference(try arguments.string("ref"))
        output = try arguments.optionalString("output")
        if let output, output.isEmpty || output.hasSuffix("/") { throw AppError(.invalidInput, "--output must name a file") }
        let text = try arguments.optionalString("purpose") ?? Self.defaultPurpose
        guard let purpose = PersonalDataDisclosure.checkedPurpose(text) else {
            throw AppError(
                .invalidInput,
                "--purpose must be 1 to \(PersonalDataDisclosure.maximumPurposeLength) "
                    + "characters without control characters")
        }
        if let issue = PersonalDataShape.issue(purpose, field: "--purpose", context: .prose) {
            throw AppError(.invalidInput, issue.message)
        }
        self.purpose = purpose
    }

    func run() async throws {
        let disclosure = PersonalDataDisclosure(
            actor: "cli", keyID: nil, fields: [], purpose: purpose,
            channel: "journeys subjects export")
        let export = try await SubjectsCommand.withSubjects { [reference] in
            try await $0.export(reference, disclosure: disclosure)
        }
        let json = try export.json()
        guard let output else { return AppEnvironment.current.writeLine(String(decoding: json, as: UTF8.self)) }
        // Created O_EXCL|O_NOFOLLOW, 0600, before any byte is written; an existing file is refused.
        try ExclusiveFile.write(json, to: output)
        AppEnvironment.current.writeLine(
            "wrote \(output): \(export.journeys.count) journey(s) of subject \(reference.rawValue)"
                + (export.erased ? " (erased)" : ""))
    }
}

struct SubjectsErase: Command {
    static let configuration = CommandConfiguration(
        name: "erase", summary: "Erase a subject: destroy their data key and mark each of their journeys SubjectErased.",
        discussion: """
            Crypto-shredding: every sealed value of the subject (personal data, tokens, Human \
            Tokens) becomes unreadable; the log, its hash chains and signed checkpoints stay intact. \
            Active journeys are abandoned. Stored idempotency answers of the journeys are dropped. \
            Idempotent: a second run says the subject was already erased and exits 0.
            """,
        options: [
            .optional(
                "reason", valueName: "TEXT",
                help: "Why (recorded in each journey's log; no personal data). Default: data subject request.")
        ],
        positionals: [PositionalSpec("ref", help: "The subject reference (see 'journeys subjects find').")])
    let reference: SubjectReference
    let reason: String?

    init(arguments: ParsedArguments) throws {
        reference = try SubjectsCommand.reference(try arguments.string("ref"))
        reason = try arguments.optionalString("reason")
    }

    func run() async throws {
        let report = try await SubjectsCommand.withSubjects { [reference, reason] in
            try await $0.erase(reference, requestedBy: "cli", reason: reason)
        }
        let out = AppEnvironment.current.writeLine
        let when = RFC3339.string(from: report.erasedAt)
        if report.alreadyErased {
            return out("subject \(report.subjectReference) was already erased at \(when); nothing changed")
        }
        out(
            "subject \(report.subjectReference) erased at \(when): \(report.journeysMarked) of \(report.journeyIds.count) "
                + "journey(s) marked, \(report.journeysAbandoned) abandoned, \(report.idempotencyAnswersPurged) stored answer(s) purged"
        )
    }
}
