/// The subject of a start request as received: plain text, not yet validated or sealed.
///
/// Holds personal data: its description is redacted and it must never be logged or stored.
public struct SubjectInput: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var documentType: String?
    public var documentNumber: String?
    public var name: String?
    public var friendlyName: String?
    public var phone: String?
    public var email: String?
    /// Channel names such as `NOTIFICATION_CHANNEL_SMS`.
    public var notificationChannels: [String]

    public init(
        documentType: String?,
        documentNumber: String?,
        name: String? = nil,
        friendlyName: String? = nil,
        phone: String? = nil,
        email: String? = nil,
        notificationChannels: [String] = []
    ) {
        self.documentType = documentType
        self.documentNumber = documentNumber
        self.name = name
        self.friendlyName = friendlyName
        self.phone = phone
        self.email = email
        self.notificationChannels = notificationChannels
    }

    public var description: String { "SubjectInput(redacted)" }
    public var debugDescription: String { description }
}
