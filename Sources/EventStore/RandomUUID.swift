import Cryptography
import Foundation

extension UUID {
    /// A random (version 4) UUID from OpenSSL's CSPRNG (``SecureRandom``).
    ///
    /// Use it instead of Foundation's `UUID()`, which opens, reads and closes `/dev/urandom` on
    /// every call (three system calls and a file descriptor per id).
    public static func random() -> UUID {
        SecureRandom.uuid()
    }
}
