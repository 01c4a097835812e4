/// Unico's process state from Get Process; unknown values are kept as they came.
public struct ProcessState: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public static let created = ProcessState(rawValue: "PROCESS_STATE_CREATED")
    public static let failed = ProcessState(rawValue: "PROCESS_STATE_FAILED")
    public static let finished = ProcessState(rawValue: "PROCESS_STATE_FINISHED")

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
