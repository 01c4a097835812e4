import Foundation

/// A phone running an app with the SDK Lite, pointed at the Unico emulator.
///
/// Give its ``ViewController`` to `AcessoBioManager` and drive the seed's callback API, or call
/// ``run(webAppToken:environment:user:)`` for one capture's outcome. ``user`` decides what
/// happens once the capture opens.
public final class SimulatedDevice: Sendable {
    /// Where the emulator is, whether this is a simulator and how the network behaves.
    public let configuration: Configuration
    /// The person holding the phone.
    public let user: SimulatedUser
    let api: CaptureAPI

    /// A phone set up by `configuration`, held by `user` (default ``SimulatedUser/approve``).
    public convenience init(configuration: Configuration, user: SimulatedUser = .approve) {
        let api = CaptureAPI(
            baseURL: configuration.emulatorURL, network: configuration.network,
            requestTimeout: configuration.requestTimeout)
        self.init(configuration: configuration, user: user, api: api)
    }

    /// A phone pointed at `emulatorURL` with every other setting at its default.
    public convenience init(emulatorURL: URL, user: SimulatedUser = .approve) {
        self.init(configuration: Configuration(emulatorURL: emulatorURL), user: user)
    }

    init(configuration: Configuration, user: SimulatedUser, api: CaptureAPI) {
        self.configuration = configuration
        self.user = user
        self.api = api
    }

    /// The same phone, network session included, handed to another person.
    public func handed(to user: SimulatedUser) -> SimulatedDevice {
        SimulatedDevice(configuration: configuration, user: user, api: api)
    }
}
