/// Unico's process result from Get Process; unknown values are kept as they came.
public struct ProcessResult: StringValue {
    public let rawValue: String

    public static let unspecified = ProcessResult(rawValue: "PROCESS_RESULT_UNSPECIFIED")
    public static let ok = ProcessResult(rawValue: "PROCESS_RESULT_OK")
    public static let error = ProcessResult(rawValue: "PROCESS_RESULT_ERROR")
    public static let invalidIdentity = ProcessResult(rawValue: "PROCESS_RESULT_INVALID_IDENTITY")
    public static let expired = ProcessResult(rawValue: "PROCESS_RESULT_EXPIRED")

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
