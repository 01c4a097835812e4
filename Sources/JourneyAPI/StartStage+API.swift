import JourneyEngine

/// The API's stages of a timed journey start, and every stage in the order a start runs them.
extension StartStage {
    /// The API key lookup.
    public static let authenticate = "authenticate"
    /// Media type, body decoding, field validation and the Idempotency-Key's checks.
    public static let validate = "validate"
    /// Claiming the Idempotency-Key and storing the answer (statements in the start's transactions).
    public static let idempotency = "idempotency"
    /// The 201 answer: client token and JSON encoding.
    public static let answer = "answer"
    /// Holding the key's lease: the renewal task's start and stop.
    public static let lease = "lease"
    /// The handler's time outside every other stage.
    public static let other = "other"

    /// Every stage of a start, in the order it runs them.
    public static let all = [
        authenticate, validate, transactionBegin, idempotency, seal, startTransaction, transactionCommit,
        unicoRateWait, unicoCreateProcess, recordTransaction, answer, lease, other,
    ]
}
