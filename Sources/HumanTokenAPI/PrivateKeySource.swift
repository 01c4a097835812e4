import Cryptography
import Foundation

/// Where the service account's RSA private key comes from.
///
/// Its description and reflection never show the key, only where it comes from.
public enum PrivateKeySource: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The PEM text itself (PKCS#8 `BEGIN PRIVATE KEY` or PKCS#1 `BEGIN RSA PRIVATE KEY`).
    case pem(String)
    /// A file holding the PEM text.
    case file(String)

    /// Reads and parses the key; `setting` names the configuration entry in errors.
    public func load(setting: String) throws -> RSAPrivateKey {
        let text: String
        switch self {
        case .pem(let pem):
            text = pem
        case .file(let path):
            if let refusal = KeyFileAccess.refusal(path, setting: setting) {
                throw HumanTokenAPIError.configuration(setting, refusal)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw HumanTokenAPIError.configuration(setting, "cannot read the key file at \(path)")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        do {
            return try RSAPrivateKey(pem: text)
        } catch {
            let reason = (error as? CryptoError)?.code.rawValue ?? "unreadable"
            throw HumanTokenAPIError.configuration(setting, "is not a usable RSA private key (\(reason))")
        }
    }

    public var description: String {
        switch self {
        case .pem: "pem(<redacted>)"
        case .file(let path): "file(\(path))"
        }
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["source": description]) }
}
