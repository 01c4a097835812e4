import Foundation

/// Unico created the attempt's process; its `webAppToken` lives five minutes.
public struct ProcessCreated: JourneyEventPayload {
    public static let eventType = "ProcessCreated"
    public var attempt: Int
    public var occurredAt: Date
    public var processID: ProcessID
    /// The only value the app receives; sealed because it is a bearer credential.
    public var webAppToken: SealedField
    /// Create Process `token`; kept for other uses, never given to the SDK (it answers 73304).
    public var processToken: SealedField?
    /// Create Process `link`; lets the subject continue outside the app.
    public var link: SealedField?
    public var tokenExpiresAt: Date

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
        self.occurredAt = occurredAt
        self.processID = processID
        self.webAppToken = webAppToken
        self.processToken = processToken
        self.link = link
        self.tokenExpiresAt = tokenExpiresAt
    }
}
