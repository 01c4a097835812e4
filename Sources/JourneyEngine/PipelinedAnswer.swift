import Postgres

/// A caller's answer to an attempt's outcome and the statements it stores with it, which run in
/// the recording transaction, sent with its `COMMIT` (one round trip for both, instead of one
/// each).
public struct PipelinedAnswer<Answer: Sendable>: Sendable {
    /// The caller's answer.
    public var value: Answer
    /// Run in order after the attempt's statements; the first failure aborts the transaction.
    public var statements: [PostgresQuery]

    public init(_ value: Answer, statements: [PostgresQuery] = []) {
        self.value = value
        self.statements = statements
    }
}
