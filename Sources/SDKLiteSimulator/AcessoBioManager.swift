/// The SDK's builder, as in the seed: `AcessoBioManager(viewController:delegate:)`,
/// `.setEnvironment(_:)`, then `.build()` for the camera opener.
///
/// ```swift
/// let camera = AcessoBioManager(viewController: self, delegate: self)
///     .setEnvironment(.PROD)
///     .build()
/// camera?.prepareAndOpenSelfieCamera(self, webAppToken: webAppToken)
/// ```
/// The host screen and the delegate are held weakly.
@SDKMainActor
public final class AcessoBioManager {
    private weak var viewController: ViewController?
    private weak var delegate: (any AcessoBioManagerDelegate)?
    /// The environment captures run in; nil until ``setEnvironment(_:)``. Without it the capture
    /// fails with `73204`, as Unico's full SDK does (`CONFIG_ENVIRONMENT_NOT_SET`).
    public private(set) var environment: EnvironmentEnum?

    /// A builder presenting from `viewController` and reporting to `delegate`.
    public init(viewController: ViewController, delegate: any AcessoBioManagerDelegate) {
        self.viewController = viewController
        self.delegate = delegate
    }

    /// Sets the environment; use the one the backend created the process in.
    @discardableResult
    public func setEnvironment(_ environment: EnvironmentEnum) -> AcessoBioManager {
        self.environment = environment
        return self
    }

    /// The camera opener, or nil when the host screen is gone (nothing to present from).
    public func build() -> UnicoCheckCameraOpener? {
        guard let viewController else { return nil }
        return UnicoCheckCameraOpener(viewController: viewController, delegate: delegate, environment: environment)
    }
}
