import COpenSSL

/// Process-wide OpenSSL settings.
public enum OpenSSLRuntime {
    /// Turns off OpenSSL's clean-up at process exit (`OPENSSL_INIT_NO_ATEXIT`), once.
    ///
    /// That `atexit` handler frees the providers and the fetched algorithms while other threads
    /// (log followers, a NOTIFY coalescer, a Unico client) may still hash or seal: `journeys
    /// subjects erase` crashed in libcrypto on its way out (signal 11 after its work was done).
    /// The operating system reclaims everything at exit anyway. Call it before any other OpenSSL
    /// use; the executable does so first thing, and ``FetchedAlgorithm`` does before fetching.
    public static func disableExitCleanup() {
        _ = initialized
    }

    private static let initialized: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
}
