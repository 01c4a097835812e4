/// A stand-in for `UIViewController`: the host screen the SDK presents its capture from.
///
/// It belongs to a ``SimulatedDevice``, which is how the SDK finds the emulator, the network
/// and the person holding the phone without changing the seed's `AcessoBioManager` initializer.
@SDKMainActor
open class ViewController {
    /// The phone this screen is shown on.
    public let device: SimulatedDevice
    /// A label for logs and tests.
    open var title: String?
    /// The screen presented over this one: the SDK's capture while it is open, else nil.
    public internal(set) var presentedViewController: ViewController?

    public init(device: SimulatedDevice, title: String? = nil) {
        self.device = device
        self.title = title
    }
}
