/// What the app reports from the SDK: `onSuccess(processId)` or `onErrorSelfie(code)`.
///
/// JSON: `{"outcome":"success","processId":"..."}` or `{"outcome":"error","code":73305}`.
public enum CallbackOutcome: Hashable, Sendable {
    /// The capture journey ended; not an approval.
    case success(processID: ProcessID)
    case error(code: SDKErrorCode)
}

extension CallbackOutcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case outcome, processId, code
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let outcome = try container.decode(String.self, forKey: .outcome)
        switch outcome {
        case "success":
            self = .success(processID: try container.decode(ProcessID.self, forKey: .processId))
        case "error":
            self = .error(code: try container.decode(SDKErrorCode.self, forKey: .code))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .outcome,
                in: container,
                debugDescription: "outcome must be \"success\" or \"error\", got \"\(outcome)\""
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .success(let processID):
            try container.encode("success", forKey: .outcome)
            try container.encode(processID, forKey: .processId)
        case .error(let code):
            try container.encode("error", forKey: .outcome)
            try container.encode(code, forKey: .code)
        }
    }
}
