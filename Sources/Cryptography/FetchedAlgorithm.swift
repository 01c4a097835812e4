import COpenSSL

/// An algorithm fetched from OpenSSL's default provider once per process.
///
/// OpenSSL 3 looks an algorithm up by name (in a locked store) on every call that names it or passes
/// a legacy object such as `EVP_sha256()`; passing a fetched object skips that lookup. Fetched objects
/// are immutable, so one is shared by all threads; they live as long as the process.
final class FetchedAlgorithm: @unchecked Sendable {
    /// SHA-256 (`EVP_MD`).
    static let sha256 = FetchedAlgorithm(EVP_MD_fetch(nil, "SHA256", nil), name: "SHA256")
    /// AES-256-GCM (`EVP_CIPHER`).
    static let aes256GCM = FetchedAlgorithm(EVP_CIPHER_fetch(nil, "AES-256-GCM", nil), name: "AES-256-GCM")

    let pointer: OpaquePointer

    private init(_ pointer: @autoclosure () -> OpaquePointer?, name: String) {
        OpenSSLRuntime.disableExitCleanup()
        let pointer = pointer()
        // The default provider always has these; without them no primitive here could work.
        guard let pointer else { preconditionFailure("OpenSSL could not fetch \(name)") }
        self.pointer = pointer
    }
}
