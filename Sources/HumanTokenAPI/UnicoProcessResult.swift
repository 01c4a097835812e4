/// A process's result as Get Process reports it; unknown values are kept.
public struct UnicoProcessResult: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unspecified = UnicoProcessResult(rawValue: "PROCESS_RESULT_UNSPECIFIED")
    public static let ok = UnicoProcessResult(rawValue: "PROCESS_RESULT_OK")
    public static let error = UnicoProcessResult(rawValue: "PROCESS_RESULT_ERROR")
    public static let invalidIdentity = UnicoProcessResult(rawValue: "PROCESS_RESULT_INVALID_IDENTITY")
    public static let expired = UnicoProcessResult(rawValue: "PROCESS_RESULT_EXPIRED")

    public var description: String { rawValue }
}
