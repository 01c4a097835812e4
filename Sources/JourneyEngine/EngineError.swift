import ErrorCodes
import HumanTokenAPI
import JourneyDomain

/// A use case that could not be carried out, with a stable ``code``; messages carry no personal data.
public struct EngineError: CodedError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The journey has no events.
        public static let journeyNotFound = Code(rawValue: "journey_not_found")
        /// No Unico client is configured for the journey's environment (``EngineError/environment``).
        public static let unicoNotConfigured = Code(rawValue: "unico_not_configured")
        /// Create Process failed (``EngineError/unico`` says how); the failure is recorded, or the
        /// intent is left open for reconciliation when Unico did not answer.
        public static let processCreationFailed = Code(rawValue: "process_creation_failed")
        /// The journey was started but its first attempt's outcome could not be recorded
        /// (``EngineError/underlying`` says why, typically a database outage); the journey
        /// (``EngineError/journeyID``) exists and answers from its state.
        public static let startInterrupted = Code(rawValue: "start_interrupted")
        /// The journey had no event yet at the instant of an as-of read.
        public static let noEventsAsOf = Code(rawValue: "no_events_as_of")
        /// A start's Idempotency-Key was used before with another request body.
        public static let idempotencyKeyReused = Code(rawValue: "idempotency_key_reused")
        /// The first start with this Idempotency-Key is still running (its journey, if known,
        /// in ``EngineError/journeyID``); retry later.
        public static let idempotencyKeyInProgress = Code(rawValue: "idempotency_key_in_progress")
        /// The journey's events do not hold what the step needs (a bug, not a caller's mistake).
        public static let inconsistentState = Code(rawValue: "inconsistent_state")
    }

    public var code: Code
    public var message: String
    /// The journey's environment, for `unico_not_configured`.
    public var environment: Environment?
    /// Unico's answer, for `process_creation_failed`.
    public var unico: HumanTokenAPIError?
    /// The journey the error is about, for `start_interrupted` and `idempotency_key_in_progress`.
    public var journeyID: JourneyID?
    /// What interrupted the step, for `start_interrupted`.
    public var underlying: (any Error)?

    public init(
        _ code: Code, _ message: String, environment: Environment? = nil, unico: HumanTokenAPIError? = nil,
        journeyID: JourneyID? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.environment = environment
        self.unico = unico
        self.journeyID = journeyID
        self.underlying = underlying
    }

    /// `journey_not_found`.
    static func notFound() -> EngineError { EngineError(.journeyNotFound, "no journey has this id") }
}
