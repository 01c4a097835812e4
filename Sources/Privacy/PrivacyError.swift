import ErrorCodes

/// An error from the `Privacy` module: a stable ``code`` and a message.
///
/// Messages name fields, variables and key ids only; never plaintext, key bytes, ciphertext
/// or the subject reference.
public struct PrivacyError: CodedError, Hashable {
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The subject was erased: its data key is gone and its sealed fields cannot be opened.
        public static let subjectErased = Code(rawValue: "subject_erased")
        /// No data key exists for the subject: nothing was ever sealed for it.
        public static let unknownSubject = Code(rawValue: "unknown_subject")
        /// A sealed value or wrapped key did not authenticate (wrong subject, field, key or tampered bytes).
        public static let decryptionFailed = Code(rawValue: "decryption_failed")
        /// A key or setting in the configuration is missing or malformed.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// A data key is wrapped under a key-encryption key id that the configuration lacks.
        public static let unknownKeyID = Code(rawValue: "unknown_key_id")
        /// A document number has no letters or digits to derive a subject reference from.
        public static let invalidDocumentNumber = Code(rawValue: "invalid_document_number")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
