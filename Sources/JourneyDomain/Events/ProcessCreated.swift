import Foundation

/// Unico created the attempt's process; its `webAppToken` lives five minutes.
public struct ProcessCreated: JourneyEventPayload {
    public static let eventType = "ProcessCreated"
    public let attempt: Int
    public let occurredAt: Date
    public let processID: ProcessID
    /// The only value the app receives; sealed because it is a bearer credential.
    public let webAppToken: SealedField
    /// Create Process `token`; kept for other uses, never given to the SDK (it answers 73304).
    public let processToken: SealedField?
    /// Create Process `link`; lets the subject continue outside the app.
    public let link: SealedField?
    public let tokenExpiresAt: Date

    public init(
        attempt: Int,
        occurredAt: Date,
        processID: ProcessID,
        webAppToken: SealedField,
        processToken: SealedField? = nil,
        link: SealedField? = nil,
        tokenExpiresAt: Date
    ) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.processID = processID
        self.webAppToken = webAppToken
        self.processToken = processToken
        self.link = link
        self.tokenExpiresAt = tokenExpiresAt.roundedToMicroseconds
    }
}
