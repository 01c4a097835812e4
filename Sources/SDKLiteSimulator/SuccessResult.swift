/// What `onSuccess(_:)` receives: the journey ended for this process.
///
/// It does not say the person was approved; read the result with Get Process or a webhook.
public struct SuccessResult: Sendable, Hashable {
    /// The Unico process whose journey ended.
    public let processId: String

    public init(processId: String) {
        self.processId = processId
    }
}
