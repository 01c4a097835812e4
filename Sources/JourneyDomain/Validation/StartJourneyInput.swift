/// A start request as received: plain strings, validated by ``validated()``.
public struct StartJourneyInput: Hashable, Sendable {
    public var environment: String?
    public var flow: String?
    public var purpose: String?
    public var subject: SubjectInput?
    /// The company's own optional reference.
    public var clientReference: String?

    public init(
        environment: String?,
        flow: String?,
        purpose: String?,
        subject: SubjectInput?,
        clientReference: String? = nil
    ) {
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
    }
}
