import Foundation
import HumanTokenAPI
import JourneyDomain

/// A final ``StartAnswer`` as its idempotency key keeps it (`idempotency_keys.outcome`, JSON):
/// the outcome, not its rendering, so a replay is rendered like a fresh answer.
struct StoredStartAnswer: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case awaitingToken, token, refusedField, ended
    }

    var kind: Kind
    /// ``StartResult/answerID``.
    var answerID: UUID?
    var journeyID: String
    var environment: String?
    /// The start's time (`awaitingToken`) or the outcome's decision time (`token`, `refusedField`).
    var decidedAt: Date?
    var firstTokenBy: Date?
    var attempt: Int?
    var webAppToken: String?
    var webAppTokenExpiresAt: Date?
    var deadline: Date?
    /// The request field Unico refused (`refusedField`), if it said.
    var field: String?
    /// The journey's status (`ended`).
    var status: String?

    /// The stored form of `answer`; nil for an answer a key does not keep (``StartAnswer/isFinal``).
    init?(_ answer: StartAnswer, answerID: UUID) {
        guard answer.isFinal else { return nil }
        self.answerID = answerID
        journeyID = answer.journeyID.rawValue
        switch answer {
        case .awaitingToken(let started):
            kind = .awaitingToken
            environment = started.environment.rawValue
            decidedAt = started.startedAt
            firstTokenBy = started.firstTokenBy
        case .attempt(let outcome, let deadline):
            environment = outcome.environment.rawValue
            decidedAt = outcome.decidedAt
            self.deadline = deadline
            switch outcome.result {
            case .success(let issued):
                kind = .token
                attempt = issued.attempt
                webAppToken = issued.webAppToken
                webAppTokenExpiresAt = issued.expiresAt
            case .failure(let error):
                kind = .refusedField
                field = error.unico?.field
            }
        case .ended(_, let status):
            kind = .ended
            self.status = status.rawValue
        case .refused:
            return nil
        }
    }

    /// The answer again; nil when the row cannot be read (a newer format, or damaged).
    var answer: StartAnswer? {
        let id = JourneyID(journeyID)
        let environment = self.environment.flatMap(Environment.init(rawValue:))
        switch kind {
        case .awaitingToken:
            guard let environment, let decidedAt else { return nil }
            return .awaitingToken(
                StartedJourney(journeyID: id, environment: environment, startedAt: decidedAt, firstTokenBy: firstTokenBy))
        case .token:
            guard let environment, let decidedAt, let attempt, let webAppToken, let webAppTokenExpiresAt else { return nil }
            let issued = IssuedToken(attempt: attempt, webAppToken: webAppToken, expiresAt: webAppTokenExpiresAt)
            return .attempt(
                AttemptOutcome(journeyID: id, environment: environment, result: .success(issued), decidedAt: decidedAt),
                deadline: deadline)
        case .refusedField:
            guard let environment, let decidedAt else { return nil }
            let refusal = HumanTokenAPIError(.invalidArgument, "Unico refused a field of the request", field: field, status: 400)
            return .attempt(
                AttemptOutcome(
                    journeyID: id, environment: environment, result: .failure(Journeys.creationFailed(refusal)),
                    decidedAt: decidedAt),
                deadline: deadline)
        case .ended:
            guard let status = status.flatMap(JourneyStatus.init(rawValue:)) else { return nil }
            return .ended(id, status)
        }
    }

    func json() throws -> String {
        String(decoding: try Self.encoder.encode(self), as: UTF8.self)
    }

    static func decode(_ json: String) -> StoredStartAnswer? {
        try? decoder.decode(StoredStartAnswer.self, from: Data(json.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
