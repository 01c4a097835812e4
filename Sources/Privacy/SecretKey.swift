import Cryptography
import Foundation

/// Secret key bytes that never show up in descriptions, debug output or mirrors.
public struct SecretKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let bytes: Data

    public init(_ bytes: Data) {
        self.bytes = Data(bytes)
    }

    /// A fresh random key of `byteCount` bytes (default 32, an AES-256 key).
    public static func random(byteCount: Int = 32) -> SecretKey {
        SecretKey(SecureRandom.bytes(byteCount))
    }

    public var byteCount: Int { bytes.count }

    /// The key as unpadded base64url, the form environment variables take; handle as a secret.
    public var base64URLEncoded: String { Base64URL.encode(bytes) }

    public var description: String { "SecretKey(\(bytes.count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// Whether both keys hold the same bytes, compared in constant time.
    func hasSameBytes(as other: SecretKey) -> Bool {
        let probe = Data("journeys.key-compare".utf8)
        return HMACSHA256.isValid(HMACSHA256.authenticate(bytes, key: probe), for: other.bytes, key: probe)
    }
}
