import Dispatch
import SDKLiteSimulator
import Testing

/// Callbacks arrive on the SDK's one serial main queue, never on the network's threads.
@Suite("The main executor")
struct MainExecutorTests {
    @Test func theMainQueueIsOnlyWhereSDKMainActorRuns() async {
        #expect(!SDKMainActor.isOnMainQueue)
        #expect(await SDKMainActor.run { SDKMainActor.isOnMainQueue })
        let onGlobalQueue = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: SDKMainActor.isOnMainQueue) }
        }
        #expect(!onGlobalQueue)
    }

    @Test func everyCallbackOfEveryEndingRunsOnTheMainQueue() async throws {
        try await withUnico { unico in
            var records: [CaptureRecord] = []
            for user in SimulatedUser.allCases {
                let process = try await unico.createProcess()
                records.append(await Capture.open(on: unico.device(user), webAppToken: process.webAppToken))
            }
            let process = try await unico.createProcess()
            records.append(await Capture.open(on: unico.device(), webAppToken: process.token))
            records.append(await Capture.open(on: unico.device(), webAppToken: " "))
            records.append(await Capture.open(on: unico.device(isSimulator: true), webAppToken: process.webAppToken))
            records.append(await Capture.open(on: unico.device(network: .offline), webAppToken: process.webAppToken))
            records.append(await Capture.open(on: unico.device(), webAppToken: process.webAppToken, delegate: .withoutOnSuccess))
            records.append(await Capture.callFullSDK(on: unico.device()) { camera, _ in camera.prepareDocumentCamera(.RG) })

            let callbacks = records.flatMap(\.callbacks)
            #expect(callbacks.count >= records.count + 1, "the face inference timeout adds one")
            for record in records { expectWellBehaved(record) }
        }
    }

    @Test func callbacksWaitForTheMainQueueToBeFree() async throws {
        try await withUnico { unico in
            let device = unico.device()
            let order = await SDKMainActor.run { () -> [String] in
                var order: [String] = []
                let log = CallbackLog()
                let host = ViewController(device: device)
                let delegate = CompleteDelegate(log)
                AcessoBioManager(viewController: host, delegate: delegate).setEnvironment(.UAT).build()?
                    .prepareAndOpenSelfieCamera(delegate, webAppToken: "")
                order.append("returned")
                order.append(contentsOf: log.record.callbacks.map(\.description))
                return order
            }
            #expect(order == ["returned"], "a local error is not delivered inside the call or the same main-queue turn")
        }
    }
}
