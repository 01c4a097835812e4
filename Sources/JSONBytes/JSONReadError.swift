import ErrorCodes

/// Input ``JSONReader`` refuses: what was wrong and the byte offset where it was found.
public struct JSONReadError: CodedError, Equatable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not JSON: a byte the grammar does not allow here, or the input ends early.
        public static let syntax = Code(rawValue: "json_syntax")
        /// A string with a raw control character, a bad escape, a lone surrogate or invalid UTF-8.
        public static let invalidString = Code(rawValue: "json_invalid_string")
        /// A number the caller's type cannot hold exactly (too large, a fraction where an integer belongs, `-0`).
        public static let numberOutOfRange = Code(rawValue: "json_number_out_of_range")
        /// An object names the same key twice.
        public static let duplicateKey = Code(rawValue: "json_duplicate_key")
        /// A key the reader does not take as is (escaped, non-ASCII).
        public static let unsupportedKey = Code(rawValue: "json_unsupported_key")
        /// Containers nested deeper than the reader allows.
        public static let tooDeep = Code(rawValue: "json_too_deep")
        /// Valid JSON, but not what the caller expects here (another type, an unknown value, a missing key).
        public static let unexpectedValue = Code(rawValue: "json_unexpected_value")
    }

    /// The code's index in ``codes``: a plain byte keeps the error trivial to copy and cheap to
    /// propagate through the reader's typed throws.
    @usableFromInline let index: UInt8
    /// The offset, in bytes from the start of the input, where the problem was found.
    public let offset: Int

    @usableFromInline static let codes: [Code] = [
        .syntax, .invalidString, .numberOutOfRange, .duplicateKey, .unsupportedKey, .tooDeep, .unexpectedValue,
    ]

    /// An error of kind `code` (one of ``Code``'s members; any other reads back as `unexpectedValue`).
    public init(_ code: Code, at offset: Int) {
        self.index = UInt8(Self.codes.firstIndex(of: code) ?? Self.codes.count - 1)
        self.offset = offset
    }

    public var code: Code { Self.codes[Int(index)] }

    public var message: String { "invalid JSON at byte \(offset)" }
}
