import Foundation
import JourneyDomain
import Testing

/// Every command in every status: accepted or refused with the expected code.
@Suite("Transition matrix")
struct TransitionMatrixTests {
    enum Stage: String, CaseIterable, Sendable {
        case notStarted, started, creatingProcess, processCreated, tokenIssued, captureOpened
        case awaitingResult, retryScheduled, completed, abandoned

        func scenario() throws -> Scenario {
            switch self {
            case .notStarted: return Scenario()
            case .started:
                let events = try Scenario.creatingProcess().events
                return Scenario(events: Array(events.prefix(1)))
            case .creatingProcess: return try .creatingProcess()
            case .processCreated: return try .processCreated()
            case .tokenIssued: return try .tokenIssued()
            case .captureOpened: return try .captureOpened()
            case .awaitingResult: return try .awaitingResult()
            case .retryScheduled: return try .retryScheduled()
            case .completed: return try .completed()
            case .abandoned: return try .abandoned()
            }
        }
    }

    enum Kind: String, CaseIterable, Sendable {
        case start, processCreated, processCreationFailed, issueToken, captureOpened
        case callbackSuccess, callbackError, webhook, result, expireToken, retry, abandon

        /// The command aimed at the current attempt (attempt 1 before any, except `.retry`, which follows attempt 0).
        func command(current: Int) -> JourneyCommand {
            let attempt = max(1, current)
            return switch self {
            case .start: Fixture.start()
            case .processCreated: Fixture.created(attempt, Fixture.process(attempt))
            case .processCreationFailed:
                .recordProcessCreationFailed(attempt: attempt, failure: ProcessCreationFailure(httpStatus: 503, message: "down"))
            case .issueToken: .issueToken
            case .captureOpened: .recordCaptureOpened(attempt: attempt)
            case .callbackSuccess: .recordCallback(attempt: attempt, outcome: .success(processID: Fixture.process(attempt)))
            case .callbackError: .recordCallback(attempt: attempt, outcome: .error(code: .authenticationFailed))
            case .webhook: .recordWebhook(WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok"))
            case .result: .recordResult(attempt: attempt, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht")))
            case .expireToken: .expireToken(attempt: attempt)
            case .retry: .retry(afterAttempt: current)
            case .abandon: .abandon(reason: .requested("operator"))
            }
        }
    }

    /// nil: accepted. Otherwise the refusal code.
    static func expected(_ stage: Stage, _ kind: Kind) -> DomainError.Code? {
        let invalid = DomainError.Code.invalidTransition
        switch (kind, stage) {
        case (.start, .notStarted): return nil
        case (.start, _): return .alreadyStarted
        case (_, .notStarted): return invalid
        case (.webhook, .started), (.webhook, .creatingProcess): return .unknownProcess
        case (.webhook, _): return nil
        case (.abandon, .completed), (.abandon, .abandoned): return invalid
        case (.abandon, _): return nil
        case (_, .completed), (_, .abandoned): return invalid
        case (.processCreated, .creatingProcess), (.processCreationFailed, .creatingProcess): return nil
        case (.processCreated, .started), (.processCreationFailed, .started): return .staleAttempt
        case (.processCreated, _), (.processCreationFailed, _): return invalid
        case (.issueToken, .creatingProcess): return .processCreationPending
        case (.issueToken, .awaitingResult): return invalid
        case (.issueToken, _): return nil
        case (.captureOpened, .processCreated), (.captureOpened, .tokenIssued), (.captureOpened, .captureOpened): return nil
        case (.captureOpened, .started): return .unknownAttempt
        case (.captureOpened, _): return invalid
        case (.callbackSuccess, .started), (.callbackError, .started): return .unknownAttempt
        case (.callbackSuccess, .creatingProcess), (.callbackError, .creatingProcess): return invalid
        case (.callbackSuccess, _), (.callbackError, _): return nil
        case (.result, .awaitingResult): return nil
        case (.result, .captureOpened): return nil  // asked before an opened capture is expired
        case (.result, .retryScheduled): return nil  // its 73302 followed an opened capture: asked once
        case (.result, .started): return .unknownAttempt  // the journey has no attempt 1 yet
        case (.result, _): return invalid
        case (.expireToken, .processCreated), (.expireToken, .tokenIssued), (.expireToken, .captureOpened): return nil
        case (.expireToken, .started): return .staleAttempt
        case (.expireToken, _): return invalid
        case (.retry, .started), (.retry, .retryScheduled): return nil
        case (.retry, _): return invalid
        }
    }

    @Test("every command in every status", arguments: Stage.allCases, Kind.allCases)
    func matrix(stage: Stage, kind: Kind) throws {
        let scenario = try stage.scenario()
        let state = scenario.state
        #expect(state.status.rawValue == stage.rawValue)
        // Late enough that every token has expired and every retry is due.
        let command = kind.command(current: state.currentAttemptNumber)
        let now = Fixture.t0.addingTimeInterval(1_000)
        let expectedCode = Self.expected(stage, kind)
        do {
            let events = try Journey.decide(command, state: state, now: now, randomUnit: 0)
            #expect(expectedCode == nil, "accepted, expected \(expectedCode?.rawValue ?? "")")
            let after = Journey.fold(events, from: state)
            #expect(after.version == state.version + events.count)
        } catch {
            #expect(error.code == expectedCode, "\(error.message)")
            #expect(error.status == state.status)
            #expect(error.message.contains(state.status.rawValue), "message must name the state: \(error.message)")
        }
    }

    @Test("refused commands in final states name the state")
    func finalStateMessage() throws {
        let scenario = try Scenario.completed()
        let error = try #require(scenario.refusal(.issueToken, at: 10))
        #expect(error.code == .invalidTransition)
        #expect(error.code.suggestedHTTPStatus == 409)
        #expect(error.message == "cannot issue a token while the journey is completed")
    }
}
