/// Final answer of a completed journey, from Get Process.
public enum JourneyOutcome: String, Hashable, Sendable, Codable, CaseIterable {
    /// `PROCESS_RESULT_OK`: a Human Token was issued.
    case approved
    /// `PROCESS_RESULT_INVALID_IDENTITY`.
    case rejected
    /// `PROCESS_RESULT_ERROR`, `PROCESS_STATE_FAILED` or an unrecognised result; only in journeys
    /// recorded before such failures were retried under the policy (kept so their events decode).
    case failed
}
