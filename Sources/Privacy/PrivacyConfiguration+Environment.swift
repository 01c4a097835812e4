import Cryptography
import Foundation

extension PrivacyConfiguration {
    /// Environment variables read by ``fromEnvironment(_:)``.
    public enum Variable {
        /// The active KEK: 32 bytes, base64url. Required.
        public static let activeKey = "JOURNEYS_KEK"
        /// Id of the active KEK, recorded next to every key it wraps. Optional: default
        /// ``PrivacyConfiguration/keyID(of:)``, a short hash of the KEK.
        public static let activeKeyID = "JOURNEYS_KEK_ID"
        /// Older KEKs that still unwrap: comma-separated `id:base64url`, or bare `base64url`
        /// for a KEK whose id was its short hash (no `JOURNEYS_KEK_ID`). Optional.
        public static let previousKeys = "JOURNEYS_KEK_PREVIOUS"
        /// The subject-reference HMAC key: at least 32 bytes, base64url. Required.
        public static let subjectReferenceKey = "JOURNEYS_SUBJECT_REF_KEY"
    }

    /// Reads the configuration from `variables` (see ``Variable``).
    ///
    /// Errors (`invalid_configuration`) name the variable, and for `JOURNEYS_KEK_PREVIOUS` the
    /// entry number; they never repeat any part of a value.
    public static func fromEnvironment(_ variables: [String: String]) throws -> PrivacyConfiguration {
        func required(_ name: String) throws -> String {
            guard let value = variables[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
                throw invalid("\(name) is not set")
            }
            return value
        }
        func key(_ text: String, name: String) throws -> SecretKey {
            guard let bytes = Base64URL.decode(text) else {
                throw invalid("\(name) is not valid base64url")
            }
            return SecretKey(bytes)
        }
        let activeKey = try key(try required(Variable.activeKey), name: Variable.activeKey)
        let explicitID = variables[Variable.activeKeyID]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let activeKeyID = explicitID.isEmpty ? keyID(of: activeKey) : explicitID
        let referenceKey = try key(try required(Variable.subjectReferenceKey), name: Variable.subjectReferenceKey)
        var previous: [(String, SecretKey)] = []
        let entries = (variables[Variable.previousKeys] ?? "").split(separator: ",", omittingEmptySubsequences: false)
        for (index, entry) in entries.enumerated() {
            let entry = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            if entry.isEmpty { continue }
            let name = "\(Variable.previousKeys) entry \(index + 1)"
            let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 1 {
                let kek = try key(entry, name: name)
                previous.append((keyID(of: kek), kek))
            } else {
                previous.append((String(parts[0]), try key(String(parts[1]), name: name)))
            }
        }
        return try PrivacyConfiguration(
            activeKeyID: activeKeyID, activeKey: activeKey, previousKeys: previous,
            subjectReferenceKey: referenceKey, dataKeyCacheLifetime: .seconds(30), isDevelopment: false,
            names: SettingNames(
                activeKeyID: Variable.activeKeyID, activeKey: Variable.activeKey,
                previousKeys: Variable.previousKeys, subjectReferenceKey: Variable.subjectReferenceKey))
    }

    /// The id of a KEK configured without `JOURNEYS_KEK_ID`: `kek-` and 12 hex digits of
    /// HMAC-SHA256(KEK, "journeys.kek-id.v1"), which names the key without revealing it.
    public static func keyID(of kek: SecretKey) -> String {
        "kek-" + Hex.encode(HMACSHA256.authenticate(Data("journeys.kek-id.v1".utf8), key: kek.bytes)).prefix(12)
    }

    /// Fixed, publicly known keys for the embedded default and the demo. **Not secret.**
    ///
    /// Anything sealed under them is readable by anyone with this source code; never use them
    /// with real personal data. ``isDevelopment`` is true so callers can warn.
    public static func development() -> PrivacyConfiguration {
        let kek = SecretKey(SHA256.hash("human-token-journeys INSECURE development KEK v1"))
        let referenceKey = SecretKey(SHA256.hash("human-token-journeys INSECURE development subject-ref key v1"))
        return PrivacyConfiguration(
            uncheckedActiveKeyID: developmentKeyID, keys: [developmentKeyID: kek],
            subjectReferenceKey: referenceKey, dataKeyCacheLifetime: .seconds(30), isDevelopment: true)
    }

    /// KEK id of ``development()``.
    public static let developmentKeyID = "dev-insecure-1"
}
