/// What `AcessoBioManager.build()` returns: opens the Human Token capture with a `webAppToken`.
///
/// Only ``prepareAndOpenSelfieCamera(_:webAppToken:)`` works in the Lite edition; the full SDK's
/// camera calls answer `73701`. Callbacks arrive later on ``SDKMainActor``, never during the call.
@SDKMainActor
public final class UnicoCheckCameraOpener {
    /// Document kinds of the full SDK's document camera.
    public enum DocumentType: String, Sendable, Hashable, CaseIterable {
        case CNH, RG, CPF, none
    }

    /// The environment the capture runs in; nil when the builder's `setEnvironment` was not called.
    public let environment: EnvironmentEnum?
    private let device: SimulatedDevice
    private weak var viewController: ViewController?
    private weak var delegate: (any AcessoBioManagerDelegate)?

    init(viewController: ViewController, delegate: (any AcessoBioManagerDelegate)?, environment: EnvironmentEnum?) {
        self.device = viewController.device
        self.viewController = viewController
        self.delegate = delegate
        self.environment = environment
    }

    /// Prepares the SDK and opens the capture for the process behind `webAppToken`.
    ///
    /// Local checks come first, in this order and without any network call: `74001` when
    /// `delegate` lacks `onSuccess(_:)`, `73204` when the builder's `setEnvironment` was not
    /// called, `73203` for a blank token, `73006` on a simulator. Then
    /// the emulator answers `73303`/`73304`/`73305`, or the network `73302`. Errors go to
    /// `onErrorSelfie(_:)`; once open, the device's ``SimulatedUser`` decides the ending.
    public func prepareAndOpenSelfieCamera(_ delegate: any AcessoBioSelfieDelegate, webAppToken: String) {
        let session = CaptureSession(
            device: device, environment: environment, webAppToken: webAppToken,
            viewController: viewController, managerDelegate: self.delegate, selfieDelegate: delegate)
        Task { await session.run() }
    }

    /// The full SDK's smart selfie camera (SDK key, `onCameraReady`); not in Lite: `73701`.
    public func prepareSelfieCamera(_ delegate: any AcessoBioSelfieDelegate) {
        Task { [weak delegate] in
            delegate?.onErrorSelfie(Self.notInLite("prepareSelfieCamera"))
        }
    }

    /// The full SDK's document camera; not in Lite: `onErrorAcessoBioManager` gets `73701`.
    public func prepareDocumentCamera(_ documentType: DocumentType) {
        Task { [weak delegate] in
            delegate?.onErrorAcessoBioManager(Self.notInLite("prepareDocumentCamera"))
        }
    }

    private static func notInLite(_ call: String) -> ErrorBio {
        ErrorBio(
            code: ErrorBio.Code.notAvailableInLite,
            description: "\(call) is not available in the SDK Lite; use prepareAndOpenSelfieCamera(_:webAppToken:)")
    }
}
