import ErrorCodes

/// The command line does not match the command's declaration; exits with code 64.
public struct UsageError: CodedError, Equatable {
    /// A stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An option or flag that the command does not declare.
        public static let unknownOption = Code(rawValue: "unknown_option")
        /// A word that names no subcommand of a group.
        public static let unknownCommand = Code(rawValue: "unknown_command")
        /// A group named without a subcommand.
        public static let missingSubcommand = Code(rawValue: "missing_subcommand")
        /// An option given last, or followed by another option, with no value.
        public static let missingValue = Code(rawValue: "missing_value")
        /// A required option or positional that is absent.
        public static let missingArgument = Code(rawValue: "missing_argument")
        /// A non-repeatable option or flag given more than once.
        public static let duplicateOption = Code(rawValue: "duplicate_option")
        /// A value that does not convert or is out of range.
        public static let invalidValue = Code(rawValue: "invalid_value")
        /// A positional beyond those declared, or a value given to a flag.
        public static let unexpectedArgument = Code(rawValue: "unexpected_argument")
    }

    public var code: Code
    /// What is wrong, naming the option or value, e.g. `unknown option '--strem'; did you mean '--stream'?`.
    public var message: String
    /// The words naming the command, e.g. `["journeys", "events", "append"]`, for the help hint.
    public var commandPath: [String]

    public init(code: Code, message: String, commandPath: [String]) {
        self.code = code
        self.message = message
        self.commandPath = commandPath
    }

    /// The message alone: the command line shows it after `error:`.
    public var description: String { message }
}
