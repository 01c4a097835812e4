import Foundation

extension SimulatedDevice {
    /// The phone's setup: where "Unico" is, what kind of device it is and how its network behaves.
    public struct Configuration: Sendable {
        /// The emulator's base URL; the SDK posts to `<url>/sdk/captures`. No default.
        public var emulatorURL: URL
        /// Runs "on the simulator", where the capture refuses to open with `73006`. Default false.
        public var isSimulator: Bool
        /// The network between phone and Unico. Default ``NetworkCondition/online``.
        public var network: NetworkCondition
        /// How long one request may take before it fails with `73302`, in seconds. Default 10.
        public var requestTimeout: TimeInterval

        public init(
            emulatorURL: URL, isSimulator: Bool = false, network: NetworkCondition = .online,
            requestTimeout: TimeInterval = 10
        ) {
            self.emulatorURL = emulatorURL
            self.isSimulator = isSimulator
            self.network = network
            self.requestTimeout = requestTimeout
        }
    }

    /// Network faults injected on the phone's side; each one ends in `73302`.
    public enum NetworkCondition: Sendable, Hashable {
        /// Requests reach the emulator.
        case online
        /// No connectivity: every request fails before leaving the phone.
        case offline
        /// A captive portal answers every request with a 200 HTML page; nothing reaches the emulator.
        case captivePortal
        /// Online until the capture opens, then offline, so finishing the capture fails.
        case lostAfterCaptureOpens
    }
}
