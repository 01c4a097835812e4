import ErrorCodes

/// A data-subject request that cannot be carried out, with a stable ``code``.
///
/// Messages name the argument at fault and, for an unknown subject, its reference; never a
/// document number or other personal data.
public struct DataSubjectsError: CodedError, Hashable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Nothing was ever recorded for the subject reference.
        public static let unknownSubject = Code(rawValue: "unknown_subject")
        /// The subject reference is not 64 lowercase hexadecimal characters.
        public static let invalidSubjectReference = Code(rawValue: "invalid_subject_reference")
        /// A document number was given where a subject reference is expected.
        public static let documentGivenAsReference = Code(rawValue: "document_given_as_reference")
        /// A subject reference was given where a document number is expected.
        public static let referenceGivenAsDocument = Code(rawValue: "reference_given_as_document")
        /// The document number or type is not a valid CPF or CNPJ.
        public static let invalidDocument = Code(rawValue: "invalid_document")
        /// The erasure reason is empty, too long or holds control characters.
        public static let invalidReason = Code(rawValue: "invalid_reason")
        /// Free text that is recorded for ever holds something shaped like personal data (a CPF,
        /// CNPJ, phone number or e-mail address).
        public static let personalData = Code(rawValue: "personal_data")
    }

    public let code: Code
    public let message: String
    /// The argument at fault (`document`, `documentType`, `reference`, `reason`), when there is one.
    public let field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }
}
