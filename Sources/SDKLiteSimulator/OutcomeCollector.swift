/// The delegate ``SimulatedDevice/run(webAppToken:environment:user:)`` uses: it turns the first
/// callback that ends a capture into a ``DeviceOutcome``.
@SDKMainActor
final class OutcomeCollector: AcessoBioManagerDelegate, AcessoBioSelfieDelegate {
    private var continuation: CheckedContinuation<DeviceOutcome, Never>?

    /// Runs one capture on `device` and waits for its outcome.
    static func capture(on device: SimulatedDevice, webAppToken: String, environment: EnvironmentEnum) async -> DeviceOutcome {
        let collector = OutcomeCollector()
        let host = ViewController(device: device, title: "SimulatedDevice.run")
        let outcome = await withCheckedContinuation { continuation in
            collector.continuation = continuation
            guard let camera = AcessoBioManager(viewController: host, delegate: collector).setEnvironment(environment).build()
            else {
                collector.end(
                    .error(ErrorBio(code: ErrorBio.Code.authenticationFailed, description: "the SDK could not be built")))
                return
            }
            camera.prepareAndOpenSelfieCamera(collector, webAppToken: webAppToken)
        }
        withExtendedLifetime((collector, host)) {}
        return outcome
    }

    func onSuccess(_ successResult: SuccessResult) {
        end(.success(processId: successResult.processId))
    }

    func onSuccessSelfie(_ result: SelfieResult) {}

    func onErrorSelfie(_ errorBio: ErrorBio) {
        end(.error(errorBio))
    }

    func onErrorAcessoBioManager(_ error: ErrorBio) {
        end(.error(error))
    }

    func onUserClosedCameraManually() {
        end(.closedByUser)
    }

    func onSystemClosedCameraTimeoutSession() {
        end(.sessionTimedOut)
    }

    func onSystemChangedTypeCameraTimeoutFaceInference() {}

    private func end(_ outcome: DeviceOutcome) {
        continuation?.resume(returning: outcome)
        continuation = nil
    }
}
