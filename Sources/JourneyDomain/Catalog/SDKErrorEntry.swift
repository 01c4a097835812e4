/// What the seed says about one SDK error code, and how the orchestrator treats it.
public struct SDKErrorEntry: Hashable, Sendable, Codable {
    public var code: SDKErrorCode
    /// When the SDK reports it (the seed's "When" column).
    public var meaning: String
    public var category: SDKErrorCategory
    /// What to do (the seed's "What to do" column).
    public var recommendedAction: String
    /// Whether a fresh process (attempt n+1) can help.
    public var retryable: Bool
    /// False for codes the seed does not list.
    public var isDocumented: Bool

    public init(
        code: SDKErrorCode,
        meaning: String,
        category: SDKErrorCategory,
        recommendedAction: String,
        retryable: Bool,
        isDocumented: Bool = true
    ) {
        self.code = code
        self.meaning = meaning
        self.category = category
        self.recommendedAction = recommendedAction
        self.retryable = retryable
        self.isDocumented = isDocumented
    }
}
