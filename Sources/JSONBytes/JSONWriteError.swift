import ErrorCodes

/// A value ``JSONWriter`` cannot write as JSON.
public struct JSONWriteError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A NaN or infinite number.
        public static let unrepresentableNumber = Code(rawValue: "json_unrepresentable_number")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }
}
