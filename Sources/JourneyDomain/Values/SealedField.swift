/// A personal or secret value encrypted outside the domain: ciphertext in base64 and the id of the key that sealed it.
///
/// The domain never sees the plaintext; the `Cryptography` module seals and opens these.
public struct SealedField: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Ciphertext (including nonce and tag, as the sealing module lays them out), base64.
    public var ciphertext: String
    /// Id of the per-subject data key; destroying that key erases the value.
    public var keyID: String

    public init(ciphertext: String, keyID: String) {
        self.ciphertext = ciphertext
        self.keyID = keyID
    }

    public var description: String { "SealedField(keyID: \(keyID))" }
}
