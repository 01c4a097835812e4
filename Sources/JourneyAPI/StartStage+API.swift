import JourneyEngine

/// The API's stages of a timed journey start, and every stage in the order a start runs them.
extension StartStage {
    /// The API key lookup.
    public static let authenticate = "authenticate"
    /// Media type, body decoding, field validation and the Idempotency-Key's checks.
    public static let validate = "validate"
    /// The 201 answer, rendered from the engine's outcome: client token and JSON encoding.
    public static let answer = "answer"
    /// The handler's time outside every other stage.
    public static let other = "other"

    /// Every stage of a start, in the order it runs them.
    public static let all = [
        authenticate, validate, transactionBegin, idempotency, seal, startTransaction, transactionCommit,
        unicoRateWait, unicoCreateProcess, recordTransaction, answer, lease, other,
    ]
}
