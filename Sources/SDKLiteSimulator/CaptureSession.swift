import Foundation

/// One call to `prepareAndOpenSelfieCamera`: local checks, prepare, present, the user's ending,
/// finish, and exactly one callback that ends it.
///
/// Lives on ``SDKMainActor``; its network calls suspend it, so callbacks come back on the
/// main queue. Delegates and the host screen are held weakly; a gone delegate misses its callback.
@SDKMainActor
final class CaptureSession {
    private let device: SimulatedDevice
    private let environment: EnvironmentEnum?
    private let webAppToken: String
    private let implementsOnSuccess: Bool
    private weak var viewController: ViewController?
    private weak var managerDelegate: (any AcessoBioManagerDelegate)?
    private weak var selfieDelegate: (any AcessoBioSelfieDelegate)?

    init(
        device: SimulatedDevice, environment: EnvironmentEnum?, webAppToken: String, viewController: ViewController?,
        managerDelegate: (any AcessoBioManagerDelegate)?, selfieDelegate: any AcessoBioSelfieDelegate
    ) {
        self.device = device
        self.environment = environment
        self.webAppToken = webAppToken
        self.implementsOnSuccess = type(of: selfieDelegate).implementsOnSuccess
        self.viewController = viewController
        self.managerDelegate = managerDelegate
        self.selfieDelegate = selfieDelegate
    }

    /// Runs the capture to its one ending callback.
    func run() async {
        if let refusal = localRefusal() {
            selfieDelegate?.onErrorSelfie(refusal)
            return
        }
        guard let environment else { return }  // localRefusal() answered 73204
        let capture: CaptureAPI.PreparedCapture
        do {
            capture = try await device.api.prepare(webAppToken: webAppToken, environment: environment)
        } catch {
            selfieDelegate?.onErrorSelfie(error)
            return
        }
        present()
        let user = device.user
        if user == .approveAfterFaceInferenceTimeout {
            managerDelegate?.onSystemChangedTypeCameraTimeoutFaceInference()
        }
        guard let outcome = user.finishOutcome else {
            dismiss()
            if user == .closeCamera {
                managerDelegate?.onUserClosedCameraManually()
            } else {
                managerDelegate?.onSystemClosedCameraTimeoutSession()
            }
            return
        }
        do {
            try await device.api.finish(captureId: capture.captureId, outcome: outcome)
        } catch {
            dismiss()
            selfieDelegate?.onErrorSelfie(error)
            return
        }
        dismiss()
        _ = selfieDelegate?.onSuccess(SuccessResult(processId: capture.processId))
    }

    /// `73204`: the builder's `setEnvironment` was not called (the full SDK's `CONFIG_ENVIRONMENT_NOT_SET`).
    static let environmentNotSet = ErrorBio(
        code: ErrorBio.Code.environmentNotSet,
        description: "setEnvironment was not called on AcessoBioManager; the capture was not opened")

    /// The checks the SDK makes on the phone before calling Unico: delegate, environment, token, device.
    private func localRefusal() -> ErrorBio? {
        if !implementsOnSuccess {
            return ErrorBio(
                code: ErrorBio.Code.onSuccessMissing,
                description: "the delegate does not implement onSuccess(_:); the capture was not opened")
        }
        if environment == nil { return Self.environmentNotSet }
        if webAppToken.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return ErrorBio(code: ErrorBio.Code.blankToken, description: "webAppToken is empty or blank")
        }
        if device.configuration.isSimulator {
            return ErrorBio(code: ErrorBio.Code.simulator, description: "the capture does not run on the simulator")
        }
        return nil
    }

    private func present() {
        guard let viewController else { return }
        viewController.presentedViewController = ViewController(device: device, title: "AcessoBio.SelfieCapture")
    }

    private func dismiss() {
        viewController?.presentedViewController = nil
    }
}
