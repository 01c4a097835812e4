extension ErrorBio {
    /// The seed's error codes, and 73204 of the full SDK.
    public enum Code {
        /// The `webAppToken` is empty or only whitespace; checked before any network call.
        public static let blankToken = 73203
        /// The device is a simulator.
        public static let simulator = 73006
        /// Network failure or an unexpected response.
        public static let authenticationFailed = 73302
        /// Unico refused to prepare the capture (token entry not enabled in the environment).
        public static let captureRefused = 73303
        /// The token was rejected: bad signature or content, the `token` instead of the
        /// `webAppToken`, or another environment.
        public static let tokenRejected = 73304
        /// The token expired.
        public static let tokenExpired = 73305
        /// The call is not available in the Lite edition.
        public static let notAvailableInLite = 73701
        /// The delegate does not implement `onSuccess(_:)`.
        public static let onSuccessMissing = 74001
        /// The builder's `setEnvironment` was not called: not on the SDK Lite page; Unico's full
        /// SDK reports it (`CONFIG_ENVIRONMENT_NOT_SET`), and so does the simulator, before any network call.
        public static let environmentNotSet = 73204

        /// The codes the emulator may answer a capture request with.
        static let fromUnico: Set<Int> = [authenticationFailed, captureRefused, tokenRejected, tokenExpired, blankToken]
    }
}
