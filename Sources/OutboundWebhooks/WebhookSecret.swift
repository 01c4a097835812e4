import Cryptography
import Foundation

/// A Standard Webhooks signing secret, written `whsec_<base64 of the key bytes>`.
///
/// Its `description` is redacted so the secret never reaches a log line by accident.
public struct WebhookSecret: Sendable, Equatable, CustomStringConvertible {
    /// The `whsec_...` text, as stored and as shown once to the customer.
    public let text: String
    /// The HMAC key bytes.
    public let key: Data

    /// Parses `whsec_<base64>`; nil when the prefix or the base64 is wrong or the key is empty.
    public init?(_ text: String) {
        guard text.hasPrefix("whsec_"),
            let key = Data(base64Encoded: String(text.dropFirst(6))), !key.isEmpty
        else { return nil }
        self.text = text
        self.key = key
    }

    /// A new secret with 32 random bytes.
    public static func generate() -> WebhookSecret {
        WebhookSecret("whsec_" + SecureRandom.bytes(32).base64EncodedString())!
    }

    public var description: String { "whsec_<redacted>" }
}
