import COpenSSL
import Foundation

/// HMAC-SHA256 (RFC 2104) message authentication codes.
public enum HMACSHA256 {
    /// MAC size in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte HMAC-SHA256 of `message` under `key` (any length, including empty).
    public static func authenticate(_ message: some DataProtocol, key: some DataProtocol) -> Data {
        var mac = [UInt8](repeating: 0, count: byteCount)
        var length = 0
        let result = Bytes.withNonNil(key) { keyBytes, keyCount in
            Bytes.withNonNil(message) { messageBytes, messageCount in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil,
                    keyBytes, keyCount, messageBytes, messageCount,
                    &mac, mac.count, &length
                )
            }
        }
        // EVP_Q_mac with built-in HMAC-SHA256 fails only on allocation failure.
        precondition(result != nil && length == byteCount, "EVP_Q_mac(HMAC-SHA256) failed")
        return Data(mac)
    }

    /// Whether `mac` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    ///
    /// A `mac` of any length other than 32 bytes is rejected without comparison.
    public static func isValid(_ mac: some DataProtocol, for message: some DataProtocol, key: some DataProtocol) -> Bool {
        guard mac.count == byteCount else { return false }
        let expected = authenticate(message, key: key)
        return constantTimeEquals(expected, mac)
    }

    /// Compares two equal-length byte strings with `CRYPTO_memcmp`; false when lengths differ.
    static func constantTimeEquals(_ a: some DataProtocol, _ b: some DataProtocol) -> Bool {
        guard a.count == b.count else { return false }
        return Bytes.withNonNil(a) { pa, count in
            Bytes.withNonNil(b) { pb, _ in CRYPTO_memcmp(pa, pb, count) == 0 }
        }
    }
}
