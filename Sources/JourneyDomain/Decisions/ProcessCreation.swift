import Foundation

/// Input of `.recordProcessCreated`: Create Process's answer with its secrets sealed.
public struct ProcessCreation: Hashable, Sendable {
    public var attempt: Int
    public var processID: ProcessID
    public var webAppToken: SealedField
    public var processToken: SealedField?
    public var link: SealedField?
    /// Expiry of the `webAppToken` when known; nil means its lifetime after ``sentAt``.
    public var tokenExpiresAt: Date?
    /// When Create Process was sent: Unico's five minutes run from its answer, which came after
    /// this, so counting from here never overstates the token's life. Nil: the decision time.
    public var sentAt: Date?

    public init(
        attempt: Int,
        processID: ProcessID,
        webAppToken: SealedField,
        processToken: SealedField? = nil,
        link: SealedField? = nil,
        tokenExpiresAt: Date? = nil,
        sentAt: Date? = nil
    ) {
        self.attempt = attempt
        self.processID = processID
        self.webAppToken = webAppToken
        self.processToken = processToken
        self.link = link
        self.tokenExpiresAt = tokenExpiresAt
        self.sentAt = sentAt
    }
}
