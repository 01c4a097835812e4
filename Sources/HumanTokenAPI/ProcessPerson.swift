/// The person a process is for, as Create Process expects it.
///
/// Everything here is personal data: description and reflection show none of it.
public struct ProcessPerson: Sendable, Hashable, Encodable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The kind of document number, e.g. ``DocumentType/brazilCPF``.
    public var duiType: DocumentType
    /// The document number, digits only.
    public var duiValue: String
    /// A name to greet the person with, at most 50 characters.
    public var friendlyName: String?
    /// A phone number for notifications.
    public var phone: String?
    /// An e-mail address for notifications.
    public var email: String?
    /// Where Unico sends the person the journey link.
    public var notifications: [ProcessNotification]

    public init(
        duiType: DocumentType = .brazilCPF, duiValue: String, friendlyName: String? = nil,
        phone: String? = nil, email: String? = nil, notifications: [ProcessNotification] = []
    ) {
        self.duiType = duiType
        self.duiValue = duiValue
        self.friendlyName = friendlyName
        self.phone = phone
        self.email = email
        self.notifications = notifications
    }

    private enum CodingKeys: String, CodingKey {
        case duiType, duiValue, friendlyName, phone, email, notifications
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duiType, forKey: .duiType)
        try container.encode(duiValue, forKey: .duiValue)
        try container.encodeIfPresent(friendlyName, forKey: .friendlyName)
        try container.encodeIfPresent(phone, forKey: .phone)
        try container.encodeIfPresent(email, forKey: .email)
        if !notifications.isEmpty { try container.encode(notifications, forKey: .notifications) }
    }

    public var description: String { "ProcessPerson(duiType: \(duiType.rawValue), <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["duiType": duiType.rawValue]) }
}

extension ProcessPerson {
    /// The kind of a person's document number (Unico's `duiType`).
    public struct DocumentType: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }

        /// A Brazilian CPF.
        public static let brazilCPF = DocumentType(rawValue: "DUI_TYPE_BR_CPF")

        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
