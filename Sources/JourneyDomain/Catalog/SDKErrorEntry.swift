/// What Unico says about one SDK error code, and how the orchestrator treats it.
public struct SDKErrorEntry: Hashable, Sendable, Codable {
    public var code: SDKErrorCode
    /// When the SDK reports it (the seed's "When" column, or the full SDK's meaning).
    public var meaning: String
    public var category: SDKErrorCategory
    /// What the app (and whoever runs it) does (the seed's "What to do" column).
    public var recommendedAction: String
    /// Whether a fresh process (attempt n+1) can help; the journey's retry policy has the last word.
    public var retryable: Bool
    /// Where the code is documented. Default ``SDKErrorSource/sdkLitePage``.
    public var source: SDKErrorSource
    /// The full SDK's constant name (e.g. `SESSION_STATUS_USER_CANCELLED`); nil for page codes.
    public var fullSDKName: String?

    public init(
        code: SDKErrorCode,
        meaning: String,
        category: SDKErrorCategory,
        recommendedAction: String,
        retryable: Bool,
        source: SDKErrorSource = .sdkLitePage,
        fullSDKName: String? = nil
    ) {
        self.code = code
        self.meaning = meaning
        self.category = category
        self.recommendedAction = recommendedAction
        self.retryable = retryable
        self.source = source
        self.fullSDKName = fullSDKName
    }

    /// True only for the codes the SDK Lite page lists.
    public var isDocumented: Bool { source == .sdkLitePage }

    /// What the journey does when an attempt ends with this code, under a policy that does not
    /// list it in `nonRetryableCodes`.
    public var journeyAction: String {
        retryable
            ? "The attempt fails; the journey stays open: the app's next token request starts a new attempt "
                + "within the retry budget and window"
            : "The attempt fails and the journey is abandoned: a new process would fail the same way"
    }
}
