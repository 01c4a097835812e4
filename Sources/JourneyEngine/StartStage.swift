/// Names of the stages a timed journey start records in its `StageTimer` (the engine's part;
/// the API adds its own), as `journeys bench e2e` prints them.
public enum StartStage {
    /// Pool and thread hop of each command transaction (its `BEGIN` leaves with its first statement).
    public static let transactionBegin = "transaction_begin"
    /// `COMMIT` (with the writes queued before it) and the hop back of each command transaction.
    public static let transactionCommit = "transaction_commit"
    /// Sealing the subject and Unico's secrets (the subject's data key included).
    public static let seal = "seal"
    /// The start's transaction besides its other stages: decide and append `JourneyStarted`.
    public static let startTransaction = "start_transaction"
    /// Waiting for a Unico rate token (`HumanTokenAPI` records it under this name).
    public static let unicoRateWait = "unico_rate_wait"
    /// Create Process besides the rate wait.
    public static let unicoCreateProcess = "unico_create_process"
    /// The transaction recording the first attempt's outcome besides its other stages.
    public static let recordTransaction = "record_transaction"
    /// Claiming the Idempotency-Key (a statement in the start's transaction).
    public static let idempotency = "idempotency"
    /// Holding the key's lease: the renewal task's start and stop.
    public static let lease = "lease"
}
