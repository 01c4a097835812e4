import COpenSSL
import Foundation

/// A digest-sign or digest-verify context set up once for one key, then copied for each operation.
///
/// `EVP_DigestSignInit` fetches the signature algorithm (and digest) by name on every call; copying a
/// context set up once skips that and gives the same signatures byte for byte. The template is only
/// ever copied, under a lock, since OpenSSL contexts are not thread-safe.
final class PreparedContext: @unchecked Sendable {
    /// What the contexts are set up for.
    enum Operation { case sign, verify }

    private let operation: Operation
    private let lock = NSLock()
    private var template: OpaquePointer?
    private var templateDigest: OpaquePointer?

    init(_ operation: Operation) { self.operation = operation }
    deinit { EVP_MD_CTX_free(template) }

    /// A new context ready for one `EVP_DigestSign`/`EVP_DigestVerify` under `key`; the caller frees it.
    ///
    /// Nil when OpenSSL refuses the key or digest (the reason is left on OpenSSL's error queue).
    func context(key: OpaquePointer, digest: OpaquePointer?) -> OpaquePointer? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if template == nil, let made = EVP_MD_CTX_new() {
            if initialise(made, key: key, digest: digest) {
                template = made
                templateDigest = digest
            } else {
                EVP_MD_CTX_free(made)
            }
        }
        // A key is used with one digest; any other digest gets a context of its own.
        if let template, templateDigest == digest, EVP_MD_CTX_copy_ex(context, template) == 1 { return context }
        guard initialise(context, key: key, digest: digest) else {
            EVP_MD_CTX_free(context)
            return nil
        }
        return context
    }

    private func initialise(_ context: OpaquePointer, key: OpaquePointer, digest: OpaquePointer?) -> Bool {
        switch operation {
        case .sign: EVP_DigestSignInit(context, nil, digest, nil, key) == 1
        case .verify: EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1
        }
    }
}
