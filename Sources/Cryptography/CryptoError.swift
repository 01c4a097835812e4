import COpenSSL
import ErrorCodes

/// An error from the `Cryptography` module: a stable ``code`` plus a human-readable message.
///
/// Messages describe what failed and never contain key material, plaintext or secrets.
public struct CryptoError: CodedError, Hashable {
    /// A stable, machine-readable error code; compare against the static members.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A key could not be parsed, has the wrong type or size, or is too weak.
        public static let invalidKey = Code(rawValue: "invalid_key")
        /// A signature or MAC did not verify.
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// Authenticated decryption failed (wrong key, nonce, AAD or tampered data).
        public static let decryptionFailed = Code(rawValue: "decryption_failed")
        /// Input was not well-formed (base64url, JSON, PEM framing, token shape).
        public static let invalidEncoding = Code(rawValue: "invalid_encoding")
        /// An argument had the wrong size or value (e.g. nonce length).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// A token names an algorithm that is unsupported or does not match the key.
        public static let algorithmMismatch = Code(rawValue: "algorithm_mismatch")
        /// A token's `exp` claim lies in the past.
        public static let tokenExpired = Code(rawValue: "token_expired")
        /// A token's `nbf` claim lies in the future.
        public static let tokenNotYetValid = Code(rawValue: "token_not_yet_valid")
        /// OpenSSL reported an unexpected failure.
        public static let opensslFailure = Code(rawValue: "openssl_failure")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What failed, for logs and problem responses; contains no secrets.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension CryptoError {
    /// Builds an error from OpenSSL's error queue and clears the queue.
    ///
    /// OpenSSL reason strings name the library and reason only, never key bytes.
    static func openssl(_ context: String, code: Code = .opensslFailure) -> CryptoError {
        let packed = ERR_peek_last_error()
        ERR_clear_error()
        guard packed != 0 else { return CryptoError(code, context) }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(packed, &buffer, buffer.count)
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CryptoError(code, "\(context) (\(reason))")
    }
}
