import Foundation

/// Keys for sealing personal data: key-encryption keys (KEKs) by id and the subject-reference key.
///
/// The active KEK wraps every new data key; the other KEKs only unwrap keys wrapped before a
/// rotation. The subject-reference key is never rotated: changing it changes every
/// ``SubjectReferencer`` output, so old subjects would no longer be found.
public struct PrivacyConfiguration: Sendable, CustomStringConvertible {
    /// Id of the KEK that wraps new data keys.
    public let activeKeyID: String
    /// Every KEK by id, the active one included.
    public let keyEncryptionKeys: [String: SecretKey]
    /// HMAC-SHA256 key of ``SubjectReferencer``.
    public let subjectReferenceKey: SecretKey
    /// How long an unwrapped data key stays cached in one process. Default 30 s; `.zero` disables.
    ///
    /// Erasure in the same process drops the entry at once; an erasure by another process
    /// takes effect here once the entry expires (see ``SubjectVault``).
    public var dataKeyCacheLifetime: Duration
    /// True for ``development()``: fixed, public keys that protect nothing.
    public let isDevelopment: Bool
    /// The active KEK.
    let activeKey: SecretKey

    /// Builds and checks a configuration.
    ///
    /// KEKs are 32 bytes (AES-256); ids are 1 to 64 characters of `A-Z a-z 0-9 . _ -`, unique;
    /// the subject-reference key has at least 32 bytes and differs from every KEK.
    public init(
        activeKeyID: String,
        activeKey: SecretKey,
        previousKeys: [String: SecretKey] = [:],
        subjectReferenceKey: SecretKey,
        dataKeyCacheLifetime: Duration = .seconds(30)
    ) throws {
        try self.init(
            activeKeyID: activeKeyID, activeKey: activeKey,
            previousKeys: previousKeys.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            subjectReferenceKey: subjectReferenceKey, dataKeyCacheLifetime: dataKeyCacheLifetime,
            isDevelopment: false, names: .parameters)
    }

    /// Where each setting came from, for error messages.
    struct SettingNames {
        var activeKeyID: String
        var activeKey: String
        var previousKeys: String
        var subjectReferenceKey: String

        static let parameters = SettingNames(
            activeKeyID: "activeKeyID", activeKey: "activeKey",
            previousKeys: "previousKeys", subjectReferenceKey: "subjectReferenceKey")
    }

    init(
        activeKeyID: String, activeKey: SecretKey, previousKeys: [(String, SecretKey)],
        subjectReferenceKey: SecretKey, dataKeyCacheLifetime: Duration, isDevelopment: Bool,
        names: SettingNames
    ) throws {
        try Self.check(id: activeKeyID, name: names.activeKeyID)
        try Self.check(kek: activeKey, name: names.activeKey)
        var keys = [activeKeyID: activeKey]
        for (index, (id, key)) in previousKeys.enumerated() {
            let name = "\(names.previousKeys) entry \(index + 1)"
            try Self.check(id: id, name: name)
            try Self.check(kek: key, name: name)
            guard keys[id] == nil else {
                throw Self.invalid("\(name) repeats a key id already configured")
            }
            keys[id] = key
        }
        guard subjectReferenceKey.byteCount >= 32 else {
            throw Self.invalid("\(names.subjectReferenceKey) must hold at least 32 bytes")
        }
        guard !keys.values.contains(where: { $0.hasSameBytes(as: subjectReferenceKey) }) else {
            throw Self.invalid("\(names.subjectReferenceKey) must differ from every key-encryption key")
        }
        guard dataKeyCacheLifetime >= .zero else {
            throw Self.invalid("dataKeyCacheLifetime must not be negative")
        }
        self.init(
            uncheckedActiveKeyID: activeKeyID, keys: keys, subjectReferenceKey: subjectReferenceKey,
            dataKeyCacheLifetime: dataKeyCacheLifetime, isDevelopment: isDevelopment)
    }

    /// Stores already-checked settings; `keys` holds the active KEK under `activeKeyID`.
    init(
        uncheckedActiveKeyID activeKeyID: String, keys: [String: SecretKey], subjectReferenceKey: SecretKey,
        dataKeyCacheLifetime: Duration, isDevelopment: Bool
    ) {
        self.activeKeyID = activeKeyID
        self.activeKey = keys[activeKeyID] ?? SecretKey(Data())
        self.keyEncryptionKeys = keys
        self.subjectReferenceKey = subjectReferenceKey
        self.dataKeyCacheLifetime = dataKeyCacheLifetime
        self.isDevelopment = isDevelopment
    }

    /// Key ids only; never key material.
    public var description: String {
        let previous = keyEncryptionKeys.keys.filter { $0 != activeKeyID }.sorted()
        return "PrivacyConfiguration(activeKeyID: \(activeKeyID), previousKeyIDs: \(previous)"
            + (isDevelopment ? ", development" : "") + ")"
    }

    static func check(id: String, name: String) throws {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(allowed.contains) else {
            throw invalid("\(name): key id must be 1 to 64 characters of A-Z a-z 0-9 . _ -")
        }
    }

    static func check(kek: SecretKey, name: String) throws {
        guard kek.byteCount == 32 else {
            throw invalid("\(name): key-encryption key must be 32 bytes (AES-256), got \(kek.byteCount)")
        }
    }

    static func invalid(_ message: String) -> PrivacyError {
        PrivacyError(.invalidConfiguration, message)
    }
}
