import Postgres

/// A caller's answer to an attempt's outcome and the statements it stores with it, which run in
/// the recording transaction, sent with its `COMMIT` (one round trip for both, instead of one
/// each).
struct PipelinedAnswer<Answer: Sendable>: Sendable {
    /// The caller's answer.
    var value: Answer
    /// Run in order after the attempt's statements; the first failure aborts the transaction.
    var statements: [PostgresQuery]

    init(_ value: Answer, statements: [PostgresQuery] = []) {
        self.value = value
        self.statements = statements
    }
}
