import Cryptography
import Foundation

/// Signs webhook messages per the Standard Webhooks spec (`v1` HMAC-SHA256 signatures).
public struct StandardWebhookSigner: Sendable {
    public static let idHeader = "webhook-id"
    public static let timestampHeader = "webhook-timestamp"
    public static let signatureHeader = "webhook-signature"

    public let secret: WebhookSecret

    public init(secret: WebhookSecret) {
        self.secret = secret
    }

    /// The `v1,<base64>` signature of `body` for message `id` sent at `timestamp` (unix seconds).
    public func signature(id: String, timestamp: Int64, body: Data) -> String {
        "v1," + Self.mac(key: secret.key, id: id, timestamp: timestamp, body: body).base64EncodedString()
    }

    /// The three headers to send with `body`.
    public func headers(id: String, timestamp: Int64, body: Data) -> [String: String] {
        [
            Self.idHeader: id,
            Self.timestampHeader: String(timestamp),
            Self.signatureHeader: signature(id: id, timestamp: timestamp, body: body),
        ]
    }

    static func mac(key: Data, id: String, timestamp: Int64, body: Data) -> Data {
        var content = Data("\(id).\(timestamp).".utf8)
        content.append(body)
        return HMACSHA256.authenticate(content, key: key)
    }
}
