/// A process's state as Get Process reports it; unknown values are kept.
public struct ProcessState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let created = ProcessState(rawValue: "PROCESS_STATE_CREATED")
    public static let failed = ProcessState(rawValue: "PROCESS_STATE_FAILED")
    public static let finished = ProcessState(rawValue: "PROCESS_STATE_FINISHED")

    public var description: String { rawValue }
}
