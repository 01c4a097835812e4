/// How the orchestrator learned that a `webAppToken` expired.
public enum TokenExpiryDetection: String, Hashable, Sendable, Codable, CaseIterable {
    /// The orchestrator's own timer: five minutes passed without a callback.
    case timer
    /// The SDK reported code 73305.
    case sdkCallback
}
