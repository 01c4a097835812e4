import HTTPServer
import HumanTokenAPI
@testable import JourneyAPI
import Testing

@Suite struct UnicoProblemTests {
    @Test func aFieldUnicoRefusesIsA422NamingOurField() {
        let problem = Problem.unico(
            HumanTokenAPIError(.invalidArgument, "duiType not valid", field: "person.duiType", status: 400))
        #expect(problem.status.code == 422)
        #expect(problem.code == "unico_refused_field")
        #expect(problem.extra["field"] == "subject.documentType")
        #expect(problem.extra["unicoField"] == "person.duiType")
    }

    @Test func unicoOutagesAndLimitsKeepTheirStatuses() {
        #expect(Problem.unico(HumanTokenAPIError(.serverError, "boom", status: 503)).status.code == 502)
        #expect(
            Problem.unico(HumanTokenAPIError(.rateLimited, "slow down", status: 429, retryAfter: 3)).headers["Retry-After"] == "3"
        )
        #expect(Problem.unico(HumanTokenAPIError(.unauthorized, "no", status: 401)).status.code == 503)
    }
}
