import Foundation
import JourneyDomain

/// One recorded opening of a journey's sealed fields (`PersonalDataDisclosed`), as `audit show`
/// and the subject export list it: who, when, which fields, why; never the values.
public struct Disclosure: Sendable, Equatable, Encodable {
    public let recordedAt: Date
    /// The stream version of the event.
    public let version: Int64
    /// An API key's actor (`api-key:…`) or `cli`.
    public let actor: String
    public let keyId: String?
    public let tenant: String?
    public let fields: [String]
    public let purpose: String
    public let channel: String

    public init(_ event: PersonalDataDisclosed, recordedAt: Date, version: Int64) {
        self.recordedAt = recordedAt
        self.version = version
        actor = event.actor
        keyId = event.keyId
        tenant = event.tenant
        fields = event.fields
        purpose = event.purpose
        channel = event.channel
    }
}
