/// A channel Unico uses to send the person the journey link.
public struct ProcessNotification: Sendable, Hashable, Encodable {
    /// The channel, e.g. ``Channel/whatsApp``.
    public var notificationChannel: Channel

    public init(_ channel: Channel) { self.notificationChannel = channel }

    /// One of Unico's notification channels; any other value is passed through.
    public struct Channel: RawRepresentable, Sendable, Hashable, Encodable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }

        public static let whatsApp = Channel(rawValue: "NOTIFICATION_CHANNEL_WHATSAPP")
        public static let sms = Channel(rawValue: "NOTIFICATION_CHANNEL_SMS")
        public static let email = Channel(rawValue: "NOTIFICATION_CHANNEL_EMAIL")

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
