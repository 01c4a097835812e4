import Foundation
import JourneyDomain

/// What a start answers, fresh or replayed from its idempotency key.
public enum StartAnswer: Sendable {
    /// The journey waits for the app's first token request (no process yet).
    case awaitingToken(StartedJourney)
    /// The first attempt's outcome (its token, or why Create Process gave none), with the
    /// journey's deadline, if any.
    case attempt(AttemptOutcome, deadline: Date?)
    /// A key taken over from a start that never answered, whose journey has ended (or has no
    /// attempt left, or passed its deadline), with the journey's status.
    case ended(JourneyID, JourneyStatus)
    /// A key taken over from a start that never answered, whose journey gives no token now
    /// (e.g. `process_creation_pending` while Unico holds no process yet).
    case refused(JourneyID, DomainError)

    /// The journey the answer is about.
    public var journeyID: JourneyID {
        switch self {
        case .awaitingToken(let started): started.journeyID
        case .attempt(let outcome, _): outcome.journeyID
        case .ended(let id, _), .refused(let id, _): id
        }
    }

    /// True for an answer the key keeps and replays: a token, a start without a process, a
    /// journey that ended, or Unico's refusal of a field (the same request would be refused
    /// again). Any other (Unico unreachable or rate limited, no Unico client, a refusal for now)
    /// releases the key: a retry answers from the journey.
    public var isFinal: Bool {
        switch self {
        case .awaitingToken, .ended: true
        case .refused: false
        case .attempt(let outcome, _):
            switch outcome.result {
            case .success: true
            case .failure(let error): error.unico?.code == .invalidArgument
            }
        }
    }
}

/// A start's answer and whether an earlier request with the same key gave it.
public struct StartResult: Sendable {
    public var answer: StartAnswer
    /// True when the answer comes from the key (stored, or recovered from the journey after
    /// the first request died), not from this request's own start.
    public var replayed: Bool
    /// The answer's own id, kept with its key: a replay renders what the first answer rendered
    /// (e.g. the client token's `jti`), so the same answer is given again.
    public var answerID: UUID

    public init(answer: StartAnswer, replayed: Bool, answerID: UUID) {
        self.answer = answer
        self.replayed = replayed
        self.answerID = answerID
    }
}
