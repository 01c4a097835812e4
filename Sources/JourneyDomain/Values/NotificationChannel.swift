/// Channel through which Unico may notify the subject of a process link.
public enum NotificationChannel: String, Sendable, Codable, CaseIterable {
    case whatsapp = "NOTIFICATION_CHANNEL_WHATSAPP"
    case sms = "NOTIFICATION_CHANNEL_SMS"
    case email = "NOTIFICATION_CHANNEL_EMAIL"
}
