import Cryptography
import Foundation

/// Comparison whose duration does not depend on where two byte strings first differ.
enum ConstantTime {
    /// A per-process key: both sides are MACed and the MACs compared with `CRYPTO_memcmp`,
    /// so the comparison leaks nothing about either input.
    private static let key = SecureRandom.bytes(32)

    static func equals(_ a: Data, _ b: Data) -> Bool {
        HMACSHA256.isValid(HMACSHA256.authenticate(a, key: key), for: b, key: key)
    }
}
