/// A worker failure with a stable ``code``; messages carry no personal data.
public struct WorkerError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A setting (environment variable or option) is unusable; the message names it.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The `work_leases` table holds a row this version cannot read.
        public static let unreadableItem = Code(rawValue: "unreadable_item")

        public var description: String { rawValue }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
