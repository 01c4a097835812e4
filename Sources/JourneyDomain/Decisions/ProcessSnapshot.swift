import Foundation

/// Input of `.recordResult`: what Get Process said, with the Human Token sealed.
public struct ProcessSnapshot: Hashable, Sendable {
    public var state: ProcessState
    public var result: ProcessResult
    /// `data.humanToken.value`, sealed; required with `PROCESS_RESULT_OK`.
    public var humanToken: SealedField?
    public var finishedAt: Date?

    public init(state: ProcessState, result: ProcessResult, humanToken: SealedField? = nil, finishedAt: Date? = nil) {
        self.state = state
        self.result = result
        self.humanToken = humanToken
        self.finishedAt = finishedAt
    }
}
