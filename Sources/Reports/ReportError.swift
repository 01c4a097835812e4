import ErrorCodes

/// A refused report request: a stable `code` and the parameter at fault.
///
/// Messages quote at most 40 characters of the offending value and never a document number.
public struct ReportError: CodedError, Equatable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The report name is not one of ``ReportName``.
        public static let unknownReport = Code(rawValue: "unknown_report")
        /// A required parameter is absent.
        public static let missingParameter = Code(rawValue: "missing_parameter")
        /// Not an ISO 8601 date or timestamp.
        public static let invalidDate = Code(rawValue: "invalid_date")
        /// `from` is after `to`.
        public static let invalidRange = Code(rawValue: "invalid_range")
        /// A value outside its allowed set or range.
        public static let invalidValue = Code(rawValue: "invalid_value")
        /// A subject given as a document number instead of its pseudonymous reference.
        public static let documentNumberNotAllowed = Code(rawValue: "document_number_not_allowed")
        /// An output format other than table, csv or json.
        public static let unknownFormat = Code(rawValue: "unknown_format")
    }

    public var code: Code
    /// The parameter at fault, as named on the API (`from`, `to`, `environment`, ...).
    public var parameter: String
    public var message: String

    public init(_ code: Code, parameter: String, _ message: String) {
        self.code = code
        self.parameter = parameter
        self.message = message
    }

    /// The message alone (it names the parameter).
    public var description: String { message }
}
