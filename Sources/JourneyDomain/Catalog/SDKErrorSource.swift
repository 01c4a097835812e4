/// Where an SDK error code is documented: the SDK Lite page, only Unico's full iOS SDK, or nowhere.
public enum SDKErrorSource: String, Sendable, Codable, CaseIterable {
    /// The SDK Lite page's table (the seed); its meaning and action are Unico's.
    case sdkLitePage
    /// Not on the SDK Lite page: Unico's full iOS SDK documents it, and an SDK Lite build may
    /// report it (not confirmed for SDK Lite).
    case fullSDK
    /// Documented neither on the SDK Lite page nor for the full SDK.
    case unlisted

    /// Short text for reports: `SDK Lite page`, `not on the SDK Lite page (full SDK)`, `unlisted`.
    public var label: String {
        switch self {
        case .sdkLitePage: "SDK Lite page"
        case .fullSDK: "not on the SDK Lite page (full SDK)"
        case .unlisted: "not on the SDK Lite page (unlisted)"
        }
    }
}
