import HumanTokenAPI
import SDKLiteSimulator
import Testing

/// What the scripted user does once the capture is open, and what the backend then reads.
@Suite("Journeys the scripted user ends")
struct JourneyEndingTests {
    @Test func approvalEndsWithOnSuccessAndAnOKProcessWithAHumanToken() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(.approve), webAppToken: process.webAppToken)
            expectWellBehaved(record)
            #expect(record.callbacks == [.onSuccess(processId: process.id)])

            let snapshot = try await unico.process(process.id)
            #expect(snapshot.state == .finished)
            #expect(snapshot.result == .ok)
            let humanToken = try #require(snapshot.humanToken)
            #expect(humanToken == unico.emulator.process(id: process.id)?.humanToken)
        }
    }

    /// `onSuccess` means the journey ended: rejected, expired and failed journeys end with it too.
    @Test(arguments: [
        (SimulatedUser.beRejected, UnicoProcessResult.invalidIdentity),
        (.expireToken, .expired),
        (.hitJourneyError, .error),
    ])
    func otherEndingsAlsoCallOnSuccessButNotAnApproval(_ user: SimulatedUser, _ result: UnicoProcessResult) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(user), webAppToken: process.webAppToken)
            expectWellBehaved(record)
            #expect(record.callbacks == [.onSuccess(processId: process.id)])

            let snapshot = try await unico.process(process.id)
            #expect(snapshot.state == .finished)
            #expect(snapshot.result == result)
            #expect(snapshot.humanToken == nil)
        }
    }

    @Test func faceInferenceTimeoutIsReportedWhileTheCaptureIsOpenThenTheJourneyEnds() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(.approveAfterFaceInferenceTimeout), webAppToken: process.webAppToken)
            expectWellBehaved(record)
            #expect(record.callbacks == [.onSystemChangedTypeCameraTimeoutFaceInference, .onSuccess(processId: process.id)])
            #expect(record.presentedAt == ["AcessoBio.SelfieCapture", nil], "presented while open, dismissed before onSuccess")
            #expect(try await unico.process(process.id).result == .ok)
        }
    }

    @Test(arguments: [
        (SimulatedUser.closeCamera, Callback.onUserClosedCameraManually),
        (.letSessionTimeOut, .onSystemClosedCameraTimeoutSession),
    ])
    func closingOrTimingOutLeavesTheProcessOpen(_ user: SimulatedUser, _ callback: Callback) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let record = await Capture.open(on: unico.device(user), webAppToken: process.webAppToken)
            expectWellBehaved(record)
            #expect(record.callbacks == [callback])
            #expect(unico.requests.captureRequests == 1, "prepared, never finished")
            #expect(unico.emulator.process(id: process.id)?.captureStarted == true)
            let snapshot = try await unico.process(process.id)
            #expect(snapshot.state == .created)
            #expect(snapshot.result == .unspecified)

            let retry = await Capture.open(on: unico.device(.approve), webAppToken: process.webAppToken)
            #expect(retry.callbacks == [.onSuccess(processId: process.id)], "the token still opens a new capture")
        }
    }

    @Test func aFinishedProcessDoesNotOpenAgain() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            #expect(
                await Capture.open(on: unico.device(), webAppToken: process.webAppToken).callbacks == [
                    .onSuccess(processId: process.id)
                ])
            expectSelfieError(
                await Capture.open(on: unico.device(), webAppToken: process.webAppToken), ErrorBio.Code.tokenRejected)
        }
    }
}
