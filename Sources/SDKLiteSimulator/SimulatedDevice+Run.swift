extension SimulatedDevice {
    /// Runs one capture through the seed's callback API and returns how it ended.
    ///
    /// Builds `AcessoBioManager` on a fresh ``ViewController`` of this phone, sets `environment`,
    /// calls `prepareAndOpenSelfieCamera(_:webAppToken:)` and waits for the first callback that
    /// ends the capture, with `user` holding the phone. Every wait is bounded by the configured
    /// request timeout; cancelling the caller does not stop a capture already under way.
    public func run(webAppToken: String, environment: EnvironmentEnum, user: SimulatedUser) async -> DeviceOutcome {
        await OutcomeCollector.capture(on: handed(to: user), webAppToken: webAppToken, environment: environment)
    }
}
