import HTTPServer
@testable import JourneyAPI
import JourneyDomain
import Testing

/// The domain's refusals as problems: `Retry-After` where waiting helps, none where it does not
/// (the domain's tests show `retry_not_due` carries the seconds until the step is due).
@Suite struct DomainProblemTests {
    @Test func retryNotDueSaysWhenInWholeSecondsAndNamesTheState() {
        let refusal = DomainError(
            code: .retryNotDue, message: "cannot retry attempt 1: the retry is due in 8 s",
            status: .retryScheduled, attempt: 1, retryAfter: 7.2)
        let problem = Problem.domain(refusal)
        #expect(problem.status.code == 409)
        #expect(problem.code == "retry_not_due")
        #expect(problem.headers["Retry-After"] == "8")
        #expect(problem.extra["journeyStatus"] == "retryScheduled")
        #expect(problem.extra["attempt"] == "1")
    }

    @Test func aDueTimeUnderASecondOrUnknownStillWaitsOneSecond() {
        let soon = DomainError(code: .retryNotDue, message: "due in 1 s", status: .retryScheduled, retryAfter: 0.2)
        #expect(Problem.domain(soon).headers["Retry-After"] == "1")
        let unknown = DomainError(code: .retryNotDue, message: "not due", status: .retryScheduled)
        #expect(Problem.domain(unknown).headers["Retry-After"] == "1")
        let pending = DomainError(code: .processCreationPending, message: "pending", status: .creatingProcess)
        #expect(Problem.domain(pending).headers["Retry-After"] == "1")
    }

    @Test func refusalsThatWaitingCannotCureHaveNoRetryAfter() {
        let ended = DomainError(code: .invalidTransition, message: "cannot issue a token", status: .completed)
        let problem = Problem.domain(ended)
        #expect(problem.headers["Retry-After"] == nil)
        #expect(problem.extra["journeyStatus"] == "completed")
    }
}
