import Cryptography
import Foundation
import JourneyDomain

/// Wraps a subject's data key under a KEK: `nonce || AES-256-GCM(data key) || tag`.
///
/// The AAD binds the subject reference and the KEK id, so a wrapped key cannot be moved to
/// another subject's row or relabelled with another KEK id.
enum KeyWrap {
    static func aad(subject: SubjectReference, keyID: String) -> Data {
        Framing.frame("journeys.subject-key.v1", subject.rawValue, keyID)
    }

    static func wrap(_ dataKey: SecretKey, subject: SubjectReference, keyID: String, kek: SecretKey) throws -> Data {
        try AESGCM.seal(dataKey.bytes, key: kek.bytes, authenticating: aad(subject: subject, keyID: keyID)).combined
    }

    static func unwrap(_ wrapped: Data, subject: SubjectReference, keyID: String, kek: SecretKey) throws -> SecretKey {
        guard let box = try? AESGCM.SealedBox(combined: wrapped),
            let key = try? AESGCM.open(box, key: kek.bytes, authenticating: aad(subject: subject, keyID: keyID)),
            key.count == AESGCM.keyByteCount
        else {
            throw PrivacyError(.decryptionFailed, "the subject's data key did not unwrap under key-encryption key \(keyID)")
        }
        return SecretKey(key)
    }
}
