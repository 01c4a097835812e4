/// What ``Journeys/start(_:actor:claim:answer:)`` did.
public enum StartOutcome<Answer: Sendable>: Sendable {
    /// The claim hook refused (another request holds the idempotency key): nothing was started.
    case claimedElsewhere
    /// The journey started and its first attempt ran; the caller's answer to it.
    case answered(Answer)
}
