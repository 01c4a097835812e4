import Foundation

extension AESGCM {
    /// The output of ``AESGCM/seal(_:key:nonce:authenticating:)``: nonce, ciphertext and tag.
    public struct SealedBox: Sendable, Hashable {
        /// The 12-byte nonce.
        public let nonce: Data
        /// The ciphertext, as long as the plaintext.
        public let ciphertext: Data
        /// The 16-byte authentication tag.
        public let tag: Data

        /// Assembles a box from its parts, checking the nonce and tag sizes.
        public init(nonce: Data, ciphertext: Data, tag: Data) throws {
            guard nonce.count == AESGCM.nonceByteCount else {
                throw CryptoError(.invalidArgument, "AES-GCM nonce must be \(AESGCM.nonceByteCount) bytes, got \(nonce.count)")
            }
            guard tag.count == AESGCM.tagByteCount else {
                throw CryptoError(.invalidArgument, "AES-GCM tag must be \(AESGCM.tagByteCount) bytes, got \(tag.count)")
            }
            self.nonce = Data(nonce)
            self.ciphertext = Data(ciphertext)
            self.tag = Data(tag)
        }

        /// Splits `nonce || ciphertext || tag`, as produced by ``combined``.
        public init(combined: some DataProtocol) throws {
            let bytes = Data(combined)
            guard bytes.count >= AESGCM.nonceByteCount + AESGCM.tagByteCount else {
                throw CryptoError(.invalidEncoding, "sealed box is \(bytes.count) bytes; too short for nonce and tag")
            }
            try self.init(
                nonce: bytes.prefix(AESGCM.nonceByteCount),
                ciphertext: bytes.dropFirst(AESGCM.nonceByteCount).dropLast(AESGCM.tagByteCount),
                tag: bytes.suffix(AESGCM.tagByteCount))
        }

        /// `nonce || ciphertext || tag`, suitable for storage in one column.
        public var combined: Data { nonce + ciphertext + tag }
    }
}
