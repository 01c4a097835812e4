import Cryptography
import Foundation
import JourneyDomain

/// The layout of a sealed field: base64url of `0x01 || nonce || AES-256-GCM ciphertext || tag`.
///
/// The AAD binds the subject reference and the field name, so a ciphertext opens only for the
/// subject and field it was sealed for.
enum FieldEnvelope {
    static let version: UInt8 = 1

    static func aad(subject: SubjectReference, field: String) -> Data {
        Framing.frame("journeys.sealed-field.v1", subject.rawValue, field)
    }

    static func seal(_ plaintext: String, key: SecretKey, subject: SubjectReference, field: String) throws -> String {
        let box = try AESGCM.seal(Data(plaintext.utf8), key: key.bytes, authenticating: aad(subject: subject, field: field))
        return Base64URL.encode(Data([version]) + box.combined)
    }

    static func open(_ text: String, key: SecretKey, subject: SubjectReference, field: String) throws -> String {
        guard let bytes = Base64URL.decode(text), bytes.first == version,
            let box = try? AESGCM.SealedBox(combined: bytes.dropFirst())
        else {
            throw PrivacyError(.decryptionFailed, "the sealed \(field) is malformed")
        }
        guard let plaintext = try? AESGCM.open(box, key: key.bytes, authenticating: aad(subject: subject, field: field)),
            let text = String(data: plaintext, encoding: .utf8)
        else {
            throw PrivacyError(.decryptionFailed, "the sealed \(field) did not authenticate for this subject and field")
        }
        return text
    }
}
