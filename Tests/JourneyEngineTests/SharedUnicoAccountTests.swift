import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Privacy
import Testing

/// Two services of one deployment share one Unico service account. Each has its own Unico
/// client (its own access-token cache), as two `serve` processes do.
@Suite struct SharedUnicoAccountTests {
    @Test func twoServicesStartingAtTheSameMomentEachGetTheirToken() async throws {
        try await TestStack.with(TestStack.Options(time: .manual)) { stack in
            let services = try (0..<2).map { _ in
                // A fresh client per service, on the stack's stopped clock: both sign in the same second.
                let unico = try HumanTokenAPIClient(configuration: stack.unicoConfiguration, clock: stack.clock.read)
                var dependencies = EngineDependencies(
                    vault: SubjectVault(client: stack.database.app, configuration: .development()), unico: [.uat: unico])
                dependencies.clock = stack.clock.read
                return Journeys(database: stack.database.app, dependencies: dependencies)
            }
            let valid = try Self.start.validated()
            let outcomes = try await withThrowingTaskGroup(of: AttemptOutcome.self) { group in
                for service in services {
                    group.addTask {
                        let started = try await service.start(valid, actor: "test")
                        guard case .attempt(let outcome, _) = started.answer, !started.replayed else { throw CancellationError() }
                        return outcome
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 2)
            for outcome in outcomes {
                let issued = try outcome.result.get()
                #expect(issued.attempt == 1 && !issued.webAppToken.isEmpty)
                let state = try await services[0].state(of: outcome.journeyID)
                #expect(state.status == .tokenIssued, "journey \(outcome.journeyID.rawValue)")
            }
        }
    }

    @Test func aRefusalOfOurCredentialsLeavesTheJourneyToBeRetried() {
        let failure = Journeys.failure(HumanTokenAPIError(.unauthorized, "refused", status: 401, unicoCode: "1.2.5"))
        #expect(failure.retryable)
        #expect(Journeys.failure(HumanTokenAPIError(.configuration, "no key", field: "privateKey")).retryable)
        // A field Unico refused stays final: asking again cannot help.
        #expect(
            !Journeys.failure(HumanTokenAPIError(.invalidArgument, "refused", field: "person.duiValue", status: 400)).retryable)
    }

    static let start = StartJourneyInput(
        environment: "UAT", flow: "humantoken", purpose: "creditprocess",
        subject: SubjectInput(documentType: "DUI_TYPE_BR_CPF", documentNumber: "12345678909", name: "Maria Silva Souza"))
}
