import COpenSSL
import Foundation

/// SHA-256 (FIPS 180-4) digests.
public enum SHA256 {
    /// Digest size in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: some DataProtocol) -> Data {
        var digest = [UInt8](repeating: 0, count: byteCount)
        let ok = Bytes.withNonNil(data) { input, count in
            EVP_Digest(input, count, &digest, nil, FetchedAlgorithm.sha256.pointer, nil)
        }
        // EVP_Digest with a built-in algorithm fails only on allocation failure.
        precondition(ok == 1, "EVP_Digest(SHA-256) failed")
        return Data(digest)
    }

    /// Returns the SHA-256 digest of the UTF-8 bytes of `string`.
    public static func hash(_ string: some StringProtocol) -> Data {
        hash(Array(string.utf8))
    }

    /// Returns the SHA-256 digest of `data` as 64 lowercase hex characters.
    public static func hexDigest(_ data: some DataProtocol) -> String {
        Hex.encode(hash(data))
    }

    /// Returns the SHA-256 digest of the UTF-8 bytes of `string` as lowercase hex.
    public static func hexDigest(_ string: some StringProtocol) -> String {
        Hex.encode(hash(string))
    }
}
