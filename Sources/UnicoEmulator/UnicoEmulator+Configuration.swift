import Foundation
import HTTPServer

extension UnicoEmulator {
    /// Everything the emulator serves and checks; the defaults are Unico's documented values.
    public struct Configuration: Sendable {
        /// Bind address. Default `127.0.0.1`.
        public var host: String
        /// TCP port; 0 picks a free one, read it from `UnicoEmulator.port`. Default 0.
        public var port: Int
        /// Accounts whose assertions the token endpoint accepts. Default none.
        public var serviceAccounts: [ServiceAccount]
        /// The `aud` expected per environment. Default Unico's token hosts, without trailing slash.
        public var tokenHosts: [Environment: String]
        /// Also accept the emulator's own `baseURL` (known only once started, e.g. with port 0) as
        /// `aud` in every environment, for clients whose token host is the emulator. Default false.
        public var acceptsBaseURLAsAudience: Bool
        /// `expires_in` of issued access tokens, in seconds. Default 3600.
        public var accessTokenLifetime: TimeInterval
        /// API requests per second per tenant (token bucket, burst of the same size); 0 turns the
        /// limit off. Default 10.
        public var rateLimitPerSecond: Int
        /// Lifetime of a `webAppToken`, in seconds. Default 300.
        public var webAppTokenLifetime: TimeInterval
        /// Process lifetime when Create Process has no `expiresIn`, in seconds. Default 7 days.
        public var defaultProcessLifetime: TimeInterval
        /// Where finished processes of every tenant and environment are announced; nil sends no
        /// webhooks. Default nil.
        public var webhook: WebhookConfiguration?
        /// Where process answers put their fields. Default ``ResponseShape/wrapped`` (documented).
        public var responseShape: ResponseShape
        /// Faults to inject. Default none.
        public var faultScript: FaultScript
        /// Seed of every fault decision. Default 0.
        public var seed: UInt64
        /// Source of time for expiries; the fault script's clock offset is added. Default the system clock.
        public var clock: any EmulatorClock
        /// Receives one entry per request (no tokens or bodies in it). Default JSON lines on stderr.
        public var accessLog: @Sendable (AccessLogEntry) -> Void

        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            serviceAccounts: [ServiceAccount] = [],
            tokenHosts: [Environment: String] = Dictionary(
                uniqueKeysWithValues: Environment.allCases.map { ($0, $0.defaultTokenHost) }),
            acceptsBaseURLAsAudience: Bool = false,
            accessTokenLifetime: TimeInterval = 3600,
            rateLimitPerSecond: Int = 10,
            webAppTokenLifetime: TimeInterval = 300,
            defaultProcessLifetime: TimeInterval = 7 * 24 * 3600,
            webhook: WebhookConfiguration? = nil,
            responseShape: ResponseShape = .wrapped,
            faultScript: FaultScript = .none,
            seed: UInt64 = 0,
            clock: any EmulatorClock = SystemEmulatorClock(),
            accessLog: @escaping @Sendable (AccessLogEntry) -> Void = AccessLogEntry.standardError
        ) {
            self.host = host
            self.port = port
            self.serviceAccounts = serviceAccounts
            self.tokenHosts = tokenHosts
            self.acceptsBaseURLAsAudience = acceptsBaseURLAsAudience
            self.accessTokenLifetime = accessTokenLifetime
            self.rateLimitPerSecond = rateLimitPerSecond
            self.webAppTokenLifetime = webAppTokenLifetime
            self.defaultProcessLifetime = defaultProcessLifetime
            self.webhook = webhook
            self.responseShape = responseShape
            self.faultScript = faultScript
            self.seed = seed
            self.clock = clock
            self.accessLog = accessLog
        }

        /// What `journeys emulator --port P --faults FILE --seed N` needs: the script is read and
        /// validated from `faultsFile` when given.
        public init(
            port: Int, faultsFile: String?, seed: UInt64, serviceAccounts: [ServiceAccount],
            webhook: WebhookConfiguration? = nil
        ) throws(EmulatorError) {
            let script = try faultsFile.map { (path) throws(EmulatorError) in
                try FaultScript.load(contentsOf: URL(fileURLWithPath: path))
            }
            self.init(
                port: port, serviceAccounts: serviceAccounts, webhook: webhook,
                faultScript: script ?? .none, seed: seed)
        }

        /// The expected `aud` for `environment`, without a trailing slash.
        func tokenHost(for environment: Environment) -> String {
            let host = tokenHosts[environment] ?? environment.defaultTokenHost
            return host.hasSuffix("/") ? String(host.dropLast()) : host
        }

        /// Throws `invalid_configuration` for out-of-range values.
        func validate() throws(EmulatorError) {
            func check(_ condition: Bool, _ message: String) throws(EmulatorError) {
                if !condition { throw EmulatorError(.invalidConfiguration, message) }
            }
            try check((0...65535).contains(port), "port must be in 0...65535")
            try check(accessTokenLifetime > 0, "accessTokenLifetime must be positive")
            try check(rateLimitPerSecond >= 0, "rateLimitPerSecond must not be negative")
            try check(webAppTokenLifetime > 0, "webAppTokenLifetime must be positive")
            try check(defaultProcessLifetime > 0, "defaultProcessLifetime must be positive")
            try faultScript.validate()
            try webhook?.validate()
        }
    }
}
