import COpenSSL

/// The client's OpenSSL context: TLS 1.2 or later, the peer's certificate verified against the
/// system's trust store plus any ``CertificateBundle``. Shared by every connection (OpenSSL
/// allows `SSL_new` from any thread once the context is set up).
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer

    /// The context of every client that trusts the system's store alone, made once per process:
    /// loading the store parses each of its certificates (~20 ms of CPU here), which a context per
    /// client repeated for every Unico client and webhook sender built.
    static let system = TLSContext(trusting: nil)

    /// ``system`` without a bundle, else a context of its own.
    static func trusting(_ bundle: CertificateBundle?) -> TLSContext {
        guard let bundle else { return system }
        return TLSContext(trusting: bundle)
    }

    init(trusting bundle: CertificateBundle?) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            preconditionFailure("SSL_CTX_new failed: out of memory")
        }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = shim_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        _ = SSL_CTX_set_default_verify_paths(context)
        if let bundle, let store = SSL_CTX_get_cert_store(context) {
            for certificate in bundle.certificates() {
                _ = X509_STORE_add_cert(store, certificate)  // a duplicate is refused, harmlessly
                X509_free(certificate)
            }
        }
        ERR_clear_error()
    }

    deinit { SSL_CTX_free(context) }
}
