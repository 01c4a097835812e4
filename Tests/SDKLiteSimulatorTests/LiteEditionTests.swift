import SDKLiteSimulator
import Testing

/// 73701: the full SDK's camera calls exist but answer that Lite lacks them.
@Suite("Calls the Lite edition lacks")
struct LiteEditionTests {
    @Test func theSmartSelfieCameraIs73701OnTheSelfieDelegate() async throws {
        try await withUnico { unico in
            let record = await Capture.callFullSDK(on: unico.device()) { camera, delegate in
                camera.prepareSelfieCamera(delegate)
            }
            expectSelfieError(record, ErrorBio.Code.notAvailableInLite)
            #expect(unico.requests.captureRequests == 0)
        }
    }

    @Test(arguments: UnicoCheckCameraOpener.DocumentType.allCases)
    func theDocumentCameraIs73701OnTheManagerDelegate(_ type: UnicoCheckCameraOpener.DocumentType) async throws {
        try await withUnico { unico in
            let record = await Capture.callFullSDK(on: unico.device()) { camera, _ in
                camera.prepareDocumentCamera(type)
            }
            expectWellBehaved(record)
            #expect(record.callbacks == [.onErrorAcessoBioManager(code: ErrorBio.Code.notAvailableInLite)])
            #expect(unico.requests.captureRequests == 0)
        }
    }
}
