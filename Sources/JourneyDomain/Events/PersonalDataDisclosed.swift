import Foundation

/// Someone opened the journey's sealed personal data or Human Token (the disclosure trail).
///
/// Names who (an API key's id and actor, or `cli`), the tenant when known, which fields were
/// opened, through what and why; never the values. Changes nothing of the journey but its version.
public struct PersonalDataDisclosed: JourneyEventPayload {
    public static let eventType = "PersonalDataDisclosed"
    /// The journey's current attempt at the opening (0 before the first).
    public let attempt: Int
    public let occurredAt: Date
    /// Who opened: an API key's actor (`api-key:…`) or `cli`.
    public let actor: String
    /// The opening API key's id (lowercase UUID); nil for the CLI.
    public let keyId: String?
    /// The caller's tenant, when the deployment knows it.
    public let tenant: String?
    /// Names of the opened fields (``PersonalDataDisclosure/Field``), never their values.
    public let fields: [String]
    /// The caller's stated purpose (`Disclosure-Purpose`, `--purpose`).
    public let purpose: String
    /// What opened them: `GET /v1/journeys/{id}/human-token`, `GET /v1/subjects/{ref}/export`,
    /// `journeys subjects export`.
    public let channel: String

    public init(attempt: Int, occurredAt: Date, disclosure: PersonalDataDisclosure) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.actor = disclosure.actor
        self.keyId = disclosure.keyID
        self.tenant = disclosure.tenant
        self.fields = disclosure.fields
        self.purpose = disclosure.purpose
        self.channel = disclosure.channel
    }
}
