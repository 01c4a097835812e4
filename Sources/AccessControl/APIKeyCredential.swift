import Cryptography
import Foundation

/// The text of an API key, `jk_<prefix>_<secret>`: an 8-character lowercase base32 prefix
/// to find the key by, and 32 random bytes in base64url.
///
/// Only the SHA-256 of the whole text is stored (``hash``): the secret has 256 random bits,
/// so a slow hash or a server-side pepper would add configuration to lose without adding
/// resistance to guessing. `description` hides the secret so a key cannot be logged by accident.
public struct APIKeyCredential: Sendable, CustomStringConvertible, CustomReflectable {
    /// The literal every key starts with, so scanners and people recognise one.
    public static let marker = "jk_"
    /// Characters of the prefix.
    public static let prefixLength = 8
    /// Random bytes of the secret.
    public static let secretByteCount = 32
    /// Characters of the secret in base64url (no padding).
    static let secretLength = 43
    /// Longest text worth parsing; anything longer is refused unread.
    static let maximumLength = 128

    private static let base32 = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The public lookup part.
    public let prefix: String
    /// The full key text. Show it once; never log or store it.
    public let text: String

    /// Draws a new key from ``SecureRandom``.
    public static func generate() -> APIKeyCredential {
        let prefix = String(decoding: SecureRandom.bytes(prefixLength).map { base32[Int($0 & 31)] }, as: UTF8.self)
        let secret = Base64URL.encode(SecureRandom.bytes(secretByteCount))
        return APIKeyCredential(prefix: prefix, text: marker + prefix + "_" + secret)
    }

    private init(prefix: String, text: String) {
        self.prefix = prefix
        self.text = text
    }

    /// Parses key text; nil unless it has exactly the shape ``generate()`` produces.
    public init?(parsing text: some StringProtocol) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        let bytes = Array(text.utf8)
        let marker = Array(Self.marker.utf8)
        let secretStart = marker.count + Self.prefixLength + 1
        guard bytes.count == secretStart + Self.secretLength,
            bytes.starts(with: marker), bytes[secretStart - 1] == UInt8(ascii: "_")
        else { return nil }
        let prefix = bytes[marker.count..<(secretStart - 1)]
        guard Self.isPrefix(prefix) else { return nil }
        guard let secret = Base64URL.decode(String(decoding: bytes[secretStart...], as: UTF8.self)),
            secret.count == Self.secretByteCount
        else { return nil }
        self.init(prefix: String(decoding: prefix, as: UTF8.self), text: String(text))
    }

    /// Whether `text` has the shape of a key prefix (8 characters of `a-z`, `2-7`).
    public static func isPrefix(_ text: some StringProtocol) -> Bool {
        isPrefix(Array(text.utf8)[...])
    }

    private static func isPrefix(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == prefixLength && bytes.allSatisfy { base32.contains($0) }
    }

    /// SHA-256 of the key text: what the database stores.
    public var hash: Data { SHA256.hash(text) }

    /// The prefix with the secret masked, e.g. `jk_abcd2345_…`.
    public var description: String { Self.marker + prefix + "_…" }

    /// Only the prefix, so `dump` and debuggers do not print the secret either.
    public var customMirror: Mirror { Mirror(self, children: ["prefix": prefix]) }
}
