import Foundation
import SDKLiteSimulator
import Testing
import UnicoEmulator

/// 73302: no answer, or an answer the SDK does not expect.
@Suite("Network failures and unexpected responses")
struct NetworkFailureTests {
    @Test func aStoppedEmulatorIs73302() async throws {
        var stopped: (url: URL, token: String)?
        try await withUnico { unico in
            stopped = (unico.baseURL, try await unico.createProcess().webAppToken)
        }
        let (url, token) = try #require(stopped)
        let device = SimulatedDevice(configuration: .init(emulatorURL: url, requestTimeout: 5))
        expectSelfieError(await Capture.open(on: device, webAppToken: token), ErrorBio.Code.authenticationFailed)
    }

    @Test func anUnreachablePortIs73302() async throws {
        let device = SimulatedDevice(
            configuration: .init(
                emulatorURL: try #require(URL(string: "http://127.0.0.1:1")), requestTimeout: 5))
        expectSelfieError(await Capture.open(on: device, webAppToken: "a-token"), ErrorBio.Code.authenticationFailed)
    }

    @Test(arguments: ["not-unico", "healthz", "processes"])
    func aWrongPathIs73302(_ prefix: String) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let device = unico.device(url: unico.baseURL.appendingPathComponent(prefix))
            expectSelfieError(
                await Capture.open(on: device, webAppToken: process.webAppToken), ErrorBio.Code.authenticationFailed)
            #expect(unico.emulator.process(id: process.id)?.captureStarted == false)
        }
    }

    @Test func aServerErrorWhilePreparingIs73302() async throws {
        let faults = FaultScript(routes: ["prepareCapture": .init(serverErrorRate: 1)])
        try await withUnico(faults: faults) { unico in
            let process = try await unico.createProcess()
            expectSelfieError(
                await Capture.open(on: unico.device(), webAppToken: process.webAppToken), ErrorBio.Code.authenticationFailed)
        }
    }

    @Test func aLostPrepareResponseIs73302EvenThoughUnicoPrepared() async throws {
        let faults = FaultScript(routes: ["prepareCapture": .init(lostResponseRate: 1)])
        try await withUnico(faults: faults) { unico in
            let process = try await unico.createProcess()
            expectSelfieError(
                await Capture.open(on: unico.device(), webAppToken: process.webAppToken), ErrorBio.Code.authenticationFailed)
            #expect(unico.emulator.process(id: process.id)?.captureStarted == true)
        }
    }

    @Test(arguments: [SimulatedDevice.NetworkCondition.offline, .captivePortal])
    func aPhoneWithoutUnicoIs73302AndNothingReachesTheEmulator(_ network: SimulatedDevice.NetworkCondition) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(network: network), webAppToken: process.webAppToken)
            expectSelfieError(record, ErrorBio.Code.authenticationFailed)
            #expect(unico.requests.captureRequests == 0)
        }
    }

    @Test func losingTheNetworkAfterTheCaptureOpensIs73302AndTheProcessStaysOpen() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(network: .lostAfterCaptureOpens), webAppToken: process.webAppToken)
            expectSelfieError(record, ErrorBio.Code.authenticationFailed)
            #expect(unico.requests.captureRequests == 1, "prepared, never finished")
            #expect(unico.emulator.process(id: process.id)?.captureStarted == true)
            #expect(try await unico.process(process.id).state == .created)
        }
    }

    @Test func aServerErrorWhileFinishingIs73302() async throws {
        let faults = FaultScript(routes: ["finishCapture": .init(serverErrorRate: 1)])
        try await withUnico(faults: faults) { unico in
            let process = try await unico.createProcess()
            expectSelfieError(
                await Capture.open(on: unico.device(), webAppToken: process.webAppToken), ErrorBio.Code.authenticationFailed)
            #expect(try await unico.process(process.id).state == .created)
        }
    }
}
