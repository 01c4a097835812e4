import Cryptography
import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): 48-bit Unix milliseconds, then random bits (``SecureRandom``).
    ///
    /// Event ids default to v7 so the unique index on `event_id` grows at its right edge
    /// instead of touching a random leaf page (and writing a full-page image) per insert.
    public static func v7(now: Date = Date()) -> UUID {
        let millis = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        var bytes = SecureRandom.uuid().uuid
        withUnsafeMutableBytes(of: &bytes) { raw in
            for i in 0..<6 { raw[i] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(i))) }
            raw[6] = (raw[6] & 0x0F) | 0x70
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }
}
