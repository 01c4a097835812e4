/// The manager's callbacks, passed to `AcessoBioManager(viewController:delegate:)`.
///
/// Called on ``SDKMainActor``. The manager holds its delegate weakly.
@SDKMainActor
public protocol AcessoBioManagerDelegate: AnyObject {
    /// A manager-level error, e.g. `73701` for a call the Lite edition lacks.
    func onErrorAcessoBioManager(_ error: ErrorBio)
    /// The person closed the capture; the process stays open until it expires.
    func onUserClosedCameraManually()
    /// The capture session timed out on the device; the process stays open until it expires.
    func onSystemClosedCameraTimeoutSession()
    /// Face inference took too long and the camera switched to manual capture; the capture goes on.
    func onSystemChangedTypeCameraTimeoutFaceInference()
}
