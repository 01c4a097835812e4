import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): 48-bit Unix milliseconds, then random bits.
    ///
    /// Event ids default to v7 so the unique index on `event_id` grows at its right edge
    /// instead of touching a random leaf page (and writing a full-page image) per insert.
    public static func v7(now: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(i))) }
        for i in 6..<8 { bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(i))) }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(i - 8))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
