import Foundation
import HumanTokenAPI
import Testing
import UnicoEmulator

/// Failures the emulator's fault script injects: 5xx, 429, latency beyond the timeout, lost answers.
@Suite("Faults against the emulator")
struct FaultTests {
    static func script(_ route: FaultScript.Route, _ faults: FaultScript.RouteFaults) -> FaultScript {
        FaultScript(routes: [route.rawValue: faults])
    }

    @Test func serverErrorsAreReportedWithTheStatus() async throws {
        try await withEmulator(faults: Self.script(.createProcess, .init(serverErrorRate: 1))) { unico in
            let client = try unico.client()
            let error = await apiError { try await client.createProcess(Samples.fullRequest()) }
            #expect(error?.code == .serverError)
            #expect(error?.status == 500)
            expectNoSecrets(error, Samples.personalData)
        }
    }

    @Test func tokenEndpointFailureIsAServerErrorNotUnauthorized() async throws {
        try await withEmulator(faults: Self.script(.token, .init(serverErrorRate: 1))) { unico in
            let error = await apiError { try await unico.client().createProcess(Samples.minimalRequest()) }
            #expect(error?.code == .serverError)
            #expect(error?.status == 500)
        }
    }

    @Test func tokenEndpoint429AndLatencyAreReportedAsSuch() async throws {
        try await withEmulator(faults: Self.script(.token, .init(rateLimitRate: 1, retryAfterSeconds: 3))) { unico in
            let error = await apiError { try await unico.client().createProcess(Samples.minimalRequest()) }
            #expect(error?.code == .rateLimited)
            #expect(error?.retryAfter == 3)
        }
        try await withEmulator(faults: Self.script(.token, .init(latencyMs: .init(2_000)))) { unico in
            let client = try unico.client(unico.configuration(requestTimeout: 0.5))
            #expect(await apiError { try await client.createProcess(Samples.minimalRequest()) }?.code == .timeout)
        }
    }

    @Test func aLostAnswerMayStillHaveCreatedTheProcess() async throws {
        try await withEmulator(faults: Self.script(.createProcess, .init(lostResponseRate: 1))) { unico in
            let client = try unico.client()
            let error = await apiError { try await client.createProcess(Samples.fullRequest(reference: "journey-lost")) }
            #expect(error?.code == .serverError)
            #expect(error?.status == 502)
            // No idempotency on Unico's side: the caller must look before creating again.
            #expect(unico.emulator.processes().map(\.clientReference) == ["journey-lost"])
        }
    }

    @Test func injected429CarriesRetryAfterAndPausesTheTenant() async throws {
        try await withEmulator(faults: Self.script(.createProcess, .init(rateLimitRate: 1, retryAfterSeconds: 2))) { unico in
            let client = try unico.client()
            let error = await apiError { try await client.createProcess(Samples.minimalRequest()) }
            #expect(error?.code == .rateLimited)
            #expect(error?.status == 429)
            #expect(error?.retryAfter == 2)
            // The tenant's bucket is paused: the next call, on a route without faults, waits it out.
            let start = ContinuousClock.now
            #expect(await apiError { try await client.getProcess("no-such-process") }?.code == .notFound)
            #expect(ContinuousClock.now - start >= .milliseconds(1_800))
        }
    }

    @Test func latencyBeyondTheTimeoutIsATimeout() async throws {
        try await withEmulator(faults: Self.script(.getProcess, .init(latencyMs: .init(3_000)))) { unico in
            let client = try unico.client(unico.configuration(requestTimeout: 1))
            let created = try await client.createProcess(Samples.minimalRequest())
            let start = ContinuousClock.now
            let error = await apiError { try await client.getProcess(created.id) }
            let elapsed = ContinuousClock.now - start
            #expect(error?.code == .timeout)
            #expect(elapsed >= .milliseconds(900))
            #expect(elapsed < .milliseconds(2_500))
            // The next call is served normally once the slow one is abandoned.
            #expect(try await unico.client().createProcess(Samples.minimalRequest()).id.isEmpty == false)
        }
    }

    @Test func latencyWithinTheTimeoutIsFine() async throws {
        try await withEmulator(faults: Self.script(.getProcess, .init(latencyMs: .init(300)))) { unico in
            let client = try unico.client(unico.configuration(requestTimeout: 2))
            let created = try await client.createProcess(Samples.minimalRequest())
            #expect(try await client.getProcess(created.id).state == .created)
        }
    }

    @Test func anUnreachableHostIsATransportError() async throws {
        guard let port = FreePort.pick() else { return }
        let base = URL(string: "http://127.0.0.1:\(port)")!
        let client = try HumanTokenAPIClient(
            configuration: HumanTokenAPIConfiguration(
                environment: .uat, serviceAccount: "sa", tenant: "acme", privateKey: .pem(TestKeys.accountPKCS8),
                tokenHost: base, apiHost: base))
        let error = await apiError { try await client.createProcess(Samples.fullRequest()) }
        #expect(error?.code == .transport)
        expectNoSecrets(error, Samples.personalData)
    }
}
