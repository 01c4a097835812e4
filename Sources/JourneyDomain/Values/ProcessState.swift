/// Unico's process state from Get Process; unknown values are kept as they came.
public struct ProcessState: StringValue {
    public let rawValue: String

    public static let created = ProcessState(rawValue: "PROCESS_STATE_CREATED")
    public static let failed = ProcessState(rawValue: "PROCESS_STATE_FAILED")
    public static let finished = ProcessState(rawValue: "PROCESS_STATE_FINISHED")

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
