import Foundation
import SDKLiteSimulator
import Testing

/// 73203, 73006 and 74001: answered on the phone, before any network call.
@Suite("Checks the SDK makes on the phone")
struct LocalCheckTests {
    @Test(arguments: ["", " ", "   \t", "\n \r\n"])
    func blankTokenIs73203(_ token: String) async throws {
        try await withUnico { unico in
            let record = await Capture.open(on: unico.device(), webAppToken: token)
            expectSelfieError(record, ErrorBio.Code.blankToken)
            #expect(unico.requests.captureRequests == 0)
        }
    }

    @Test func blankTokenIs73203EvenWithoutNetwork() async throws {
        let unreachable = SimulatedDevice(
            configuration: .init(
                emulatorURL: try #require(URL(string: "http://127.0.0.1:1")), network: .offline, requestTimeout: 2))
        expectSelfieError(await Capture.open(on: unreachable, webAppToken: "  "), ErrorBio.Code.blankToken)
    }

    @Test func simulatorIs73006() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(isSimulator: true), webAppToken: process.webAppToken)
            expectSelfieError(record, ErrorBio.Code.simulator)
            #expect(unico.requests.captureRequests == 0)
            #expect(unico.emulator.process(id: process.id)?.captureStarted == false)
        }
    }

    @Test(arguments: [DelegateKind.withoutOnSuccess, .misspelledOnSuccess])
    func delegateWithoutOnSuccessIs74001AndTheCaptureDoesNotOpen(_ kind: DelegateKind) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(), webAppToken: process.webAppToken, delegate: kind)
            expectSelfieError(record, ErrorBio.Code.onSuccessMissing)
            #expect(record.presentedAt == [nil], "nothing was presented")
            #expect(unico.requests.captureRequests == 0)
            #expect(unico.emulator.process(id: process.id)?.captureStarted == false)

            let fixed = await Capture.open(on: unico.device(), webAppToken: process.webAppToken, delegate: .complete)
            #expect(fixed.callbacks == [.onSuccess(processId: process.id)], "the same token opens once onSuccess exists")
        }
    }

    @Test func theDelegateIsCheckedBeforeTheToken() async throws {
        try await withUnico { unico in
            let record = await Capture.open(on: unico.device(isSimulator: true), webAppToken: " ", delegate: .withoutOnSuccess)
            expectSelfieError(record, ErrorBio.Code.onSuccessMissing)
            let blankOnSimulator = await Capture.open(on: unico.device(isSimulator: true), webAppToken: "")
            expectSelfieError(blankOnSimulator, ErrorBio.Code.blankToken)
        }
    }
}
