import SDKLiteSimulator

/// Drives the seed's callback API the way an app does and records what comes back.
@SDKMainActor
enum Capture {
    /// Builds the SDK on a host screen of `device`, opens the capture with `webAppToken` and waits
    /// for the callback that ends it. `environment` nil skips `setEnvironment` (the SDK answers 73204).
    static func open(
        on device: SimulatedDevice, webAppToken: String, environment: EnvironmentEnum? = .UAT,
        delegate kind: DelegateKind = .complete
    ) async -> CaptureRecord {
        let log = CallbackLog()
        let host = ViewController(device: device, title: "Host")
        let delegate = kind.make(log)
        log.host = host
        let manager = AcessoBioManager(viewController: host, delegate: delegate)
        if let environment { manager.setEnvironment(environment) }
        log.insideCall = true
        manager.build()?.prepareAndOpenSelfieCamera(delegate, webAppToken: webAppToken)
        log.insideCall = false
        let record = await log.ending()
        withExtendedLifetime((host, delegate)) {}
        return record
    }

    /// Calls one of the full SDK's camera APIs on a built opener and records what comes back.
    static func callFullSDK(
        on device: SimulatedDevice, _ call: @SDKMainActor (UnicoCheckCameraOpener, any AcessoBioSelfieDelegate) -> Void
    ) async -> CaptureRecord {
        let log = CallbackLog()
        let host = ViewController(device: device, title: "Host")
        let delegate = CompleteDelegate(log)
        log.host = host
        log.insideCall = true
        if let camera = AcessoBioManager(viewController: host, delegate: delegate).setEnvironment(.UAT).build() {
            call(camera, delegate)
        }
        log.insideCall = false
        let record = await log.ending()
        withExtendedLifetime((host, delegate)) {}
        return record
    }
}
