/// A process's state as Get Process reports it; unknown values are kept.
public struct UnicoProcessState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let created = UnicoProcessState(rawValue: "PROCESS_STATE_CREATED")
    public static let failed = UnicoProcessState(rawValue: "PROCESS_STATE_FAILED")
    public static let finished = UnicoProcessState(rawValue: "PROCESS_STATE_FINISHED")

    public var description: String { rawValue }
}
