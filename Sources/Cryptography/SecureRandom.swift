import COpenSSL
import Foundation

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`).
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// Traps if the system cannot provide entropy: continuing with weak randomness is never safe.
    public static func bytes(_ count: Int) -> Data {
        precondition(count >= 0 && count <= Int(Int32.max), "random byte count out of range")
        var buffer = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return Data() }
        let ok = RAND_bytes(&buffer, Int32(count))
        precondition(ok == 1, "RAND_bytes failed: no entropy available")
        return Data(buffer)
    }

    /// Returns a random (version 4, RFC 9562) UUID drawn from ``bytes(_:)``.
    public static func uuid() -> UUID {
        var b = Array(bytes(16))
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}
