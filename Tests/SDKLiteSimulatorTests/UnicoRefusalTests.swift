import Foundation
import SDKLiteSimulator
import Testing
import UnicoEmulator

/// 73303, 73304 and 73305: the emulator's checks, reached through the SDK.
@Suite("Refusals from Unico")
struct UnicoRefusalTests {
    @Test func tokenEntryDisabledInUATIs73303WhilePRODStillOpens() async throws {
        try await withUnico(faults: FaultScript(tokenEntryDisabled: [.uat])) { unico in
            let uat = try await unico.createProcess(.UAT)
            expectSelfieError(await Capture.open(on: unico.device(), webAppToken: uat.webAppToken), ErrorBio.Code.captureRefused)

            let prod = try await unico.createProcess(.PROD)
            let opened = await Capture.open(on: unico.device(), webAppToken: prod.webAppToken, environment: .PROD)
            expectWellBehaved(opened)
            #expect(opened.callbacks == [.onSuccess(processId: prod.id)])
        }
    }

    @Test func theProcessTokenInsteadOfTheWebAppTokenIs73304() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            expectSelfieError(await Capture.open(on: unico.device(), webAppToken: process.token), ErrorBio.Code.tokenRejected)
            #expect(unico.emulator.process(id: process.id)?.captureStarted == false)
        }
    }

    @Test func aUATWebAppTokenWithTheSDKOnPRODIs73304() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess(.UAT)
            let record = await Capture.open(on: unico.device(), webAppToken: process.webAppToken, environment: .PROD)
            expectSelfieError(record, ErrorBio.Code.tokenRejected)
        }
    }

    @Test(arguments: [EnvironmentEnum.UAT, .PROD])
    func withoutSetEnvironmentTheCaptureIs73204BeforeAnyNetworkCall(_ environment: EnvironmentEnum) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess(environment)
            let record = await Capture.open(on: unico.device(), webAppToken: process.webAppToken, environment: nil)
            expectSelfieError(record, ErrorBio.Code.environmentNotSet)
            #expect(unico.requests.captureRequests == 0)
            #expect(unico.emulator.process(id: process.id)?.captureStarted == false)
            let set = await Capture.open(on: unico.device(), webAppToken: process.webAppToken, environment: environment)
            #expect(set.callbacks == [.onSuccess(processId: process.id)])
        }
    }

    @Test(arguments: ["garbage", "eyJhbGciOiJub25lIn0.e30."])
    func aForgedTokenIs73304(_ token: String) async throws {
        try await withUnico { unico in
            expectSelfieError(await Capture.open(on: unico.device(), webAppToken: token), ErrorBio.Code.tokenRejected)
        }
    }

    @Test func theWebAppTokenExpiresAfterFiveMinutesWith73305() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            unico.clock.advance(by: 299)
            let inTime = await Capture.open(on: unico.device(.closeCamera), webAppToken: process.webAppToken)
            #expect(inTime.callbacks == [.onUserClosedCameraManually], "still valid at 299 s")

            unico.clock.advance(by: 2)
            let late = await Capture.open(on: unico.device(), webAppToken: process.webAppToken)
            expectSelfieError(late, ErrorBio.Code.tokenExpired)
            #expect(try await unico.process(process.id).state == .created, "the process outlives its webAppToken")
        }
    }

    @Test func aFreshProcessAfter73305Opens() async throws {
        try await withUnico { unico in
            let stale = try await unico.createProcess()
            unico.clock.advance(by: 301)
            expectSelfieError(await Capture.open(on: unico.device(), webAppToken: stale.webAppToken), ErrorBio.Code.tokenExpired)
            let fresh = try await unico.createProcess()
            #expect(
                await Capture.open(on: unico.device(), webAppToken: fresh.webAppToken).callbacks == [
                    .onSuccess(processId: fresh.id)
                ])
        }
    }
}
