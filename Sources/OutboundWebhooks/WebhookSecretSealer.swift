import Cryptography
import Foundation
import Privacy

/// Seals endpoint signing secrets at rest with AES-256-GCM: `nonce || ciphertext || tag` of the
/// secret's key bytes, under a key derived from a key-encryption key (KEK).
///
/// The sealing key is HMAC-SHA256(KEK, "journeys.webhook-secret.v1"), so the KEK used for
/// subjects' data keys never encrypts anything else directly. The AAD binds the endpoint id and
/// the KEK id: a sealed secret cannot be moved to another endpoint or relabelled. The KEK that
/// sealed a secret is recorded by id, so older KEKs keep opening secrets after a rotation.
public struct WebhookSecretSealer: Sendable, CustomStringConvertible {
    /// Id of the KEK that seals new secrets.
    public let activeKeyID: String
    private let keys: [String: Data]

    /// `keys` maps KEK ids to 32-byte KEKs and must contain `activeKeyID`.
    public init(activeKeyID: String, keys: [String: Data]) throws(WebhookError) {
        guard keys[activeKeyID] != nil else {
            throw WebhookError(.invalidConfiguration, "no key-encryption key has the active id \(activeKeyID)")
        }
        var derived: [String: Data] = [:]
        for (id, kek) in keys {
            guard kek.count == AESGCM.keyByteCount else {
                throw WebhookError(.invalidConfiguration, "key-encryption key \(id) must be \(AESGCM.keyByteCount) bytes")
            }
            derived[id] = HMACSHA256.authenticate(Data(Self.purpose.utf8), key: kek)
        }
        self.activeKeyID = activeKeyID
        self.keys = derived
    }

    /// The KEKs of the privacy configuration (`JOURNEYS_KEK`, `JOURNEYS_KEK_ID`, `JOURNEYS_KEK_PREVIOUS`).
    public init(privacy: PrivacyConfiguration) throws(WebhookError) {
        var keys: [String: Data] = [:]
        for (id, key) in privacy.keyEncryptionKeys {
            guard let bytes = Base64URL.decode(key.base64URLEncoded) else {
                throw WebhookError(.invalidConfiguration, "key-encryption key \(id) is unreadable")
            }
            keys[id] = bytes
        }
        try self.init(activeKeyID: privacy.activeKeyID, keys: keys)
    }

    static let purpose = "journeys.webhook-secret.v1"

    /// Seals `secret` for endpoint `endpointID` under the active KEK.
    public func seal(_ secret: WebhookSecret, endpointID: UUID) throws -> (sealed: Data, keyID: String) {
        let key = keys[activeKeyID]!
        let box = try AESGCM.seal(secret.key, key: key, authenticating: Self.aad(endpointID: endpointID, keyID: activeKeyID))
        return (box.combined, activeKeyID)
    }

    /// Opens a secret sealed by ``seal(_:endpointID:)``.
    public func open(_ sealed: Data, keyID: String, endpointID: UUID) throws(WebhookError) -> WebhookSecret {
        guard let key = keys[keyID] else {
            throw WebhookError(.secretUnreadable, "the secret of endpoint \(endpointID) is sealed under unknown key id \(keyID)")
        }
        guard let box = try? AESGCM.SealedBox(combined: sealed),
            let bytes = try? AESGCM.open(box, key: key, authenticating: Self.aad(endpointID: endpointID, keyID: keyID)),
            let secret = WebhookSecret("whsec_" + bytes.base64EncodedString())
        else {
            throw WebhookError(.secretUnreadable, "the secret of endpoint \(endpointID) did not open under key id \(keyID)")
        }
        return secret
    }

    static func aad(endpointID: UUID, keyID: String) -> Data {
        Data("\(purpose)|\(endpointID.uuidString.lowercased())|\(keyID)".utf8)
    }

    /// Key ids only.
    public var description: String {
        "WebhookSecretSealer(activeKeyID: \(activeKeyID), keyIDs: \(keys.keys.sorted()))"
    }
}
