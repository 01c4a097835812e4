import COpenSSL
import Foundation

/// HMAC-SHA256 (RFC 2104) message authentication codes.
///
/// Built from two SHA-256 passes over a fetched digest: OpenSSL 3's `EVP_Q_mac` fetches the MAC and
/// the digest by name on every call, which cost about five times the MAC itself.
public enum HMACSHA256 {
    /// MAC size in bytes.
    public static let byteCount = 32
    /// SHA-256's block size in bytes: keys longer than this are hashed first (RFC 2104 §2).
    static let blockByteCount = 64

    /// Returns the 32-byte HMAC-SHA256 of `message` under `key` (any length, including empty).
    public static func authenticate(_ message: some DataProtocol, key: some DataProtocol) -> Data {
        var block = [UInt8](repeating: 0, count: blockByteCount)
        if key.count > blockByteCount {
            block.replaceSubrange(0..<byteCount, with: SHA256.hash(key))
        } else {
            block.replaceSubrange(0..<key.count, with: key)
        }
        var pad = block.map { $0 ^ 0x36 }
        defer {
            block.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            pad.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
        }
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var inner = [UInt8](repeating: 0, count: byteCount)
        var ok = Bytes.withNonNil(message) { bytes, count in
            digest(context, pad, bytes, count, into: &inner)
        }
        for index in pad.indices { pad[index] = block[index] ^ 0x5C }
        var mac = [UInt8](repeating: 0, count: byteCount)
        ok = ok && digest(context, pad, inner, inner.count, into: &mac)
        // Digesting with a fetched SHA-256 fails only on allocation failure.
        precondition(ok, "HMAC-SHA256 failed")
        return Data(mac)
    }

    /// SHA-256 of `pad` followed by `count` bytes at `bytes`, written to `output`.
    private static func digest(
        _ context: OpaquePointer, _ pad: [UInt8], _ bytes: UnsafePointer<UInt8>, _ count: Int,
        into output: inout [UInt8]
    ) -> Bool {
        var length: UInt32 = 0
        return EVP_DigestInit_ex2(context, FetchedAlgorithm.sha256.pointer, nil) == 1
            && EVP_DigestUpdate(context, pad, pad.count) == 1
            && EVP_DigestUpdate(context, bytes, count) == 1
            && EVP_DigestFinal_ex(context, &output, &length) == 1
            && Int(length) == byteCount
    }

    /// OpenSSL's own HMAC (`EVP_Q_mac`, fetching by name): the cross-check for ``authenticate(_:key:)``.
    static func referenceMAC(_ message: some DataProtocol, key: some DataProtocol) -> Data {
        var mac = [UInt8](repeating: 0, count: byteCount)
        var length = 0
        let result = Bytes.withNonNil(key) { keyBytes, keyCount in
            Bytes.withNonNil(message) { messageBytes, messageCount in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyBytes, keyCount, messageBytes, messageCount,
                    &mac, mac.count, &length)
            }
        }
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
