import Cryptography
import Foundation

/// The Ed25519 keys audit checkpoints are signed and checked with.
///
/// Configuration (environment):
/// - `JOURNEYS_AUDIT_SIGNING_KEY`: path of the private key file: PKCS#8 PEM (`BEGIN PRIVATE KEY`,
///   as `journeys audit keygen` writes it) or the 32 raw seed bytes. Needed to sign; its public
///   key is trusted for verification.
/// - `JOURNEYS_AUDIT_PUBLIC_KEYS`: comma-separated paths of further trusted public keys (PEM
///   `BEGIN PUBLIC KEY` or 32 raw bytes), e.g. retired keys, or on a machine that only verifies.
public struct AuditKeys: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Private key file. Default: none (signing refused).
        public var signingKeyPath: String?
        /// Extra trusted public key files. Default: none.
        public var publicKeyPaths: [String]

        public init(signingKeyPath: String? = nil, publicKeyPaths: [String] = []) {
            self.signingKeyPath = signingKeyPath
            self.publicKeyPaths = publicKeyPaths
        }

        public static let signingKeyVariable = "JOURNEYS_AUDIT_SIGNING_KEY"
        public static let publicKeysVariable = "JOURNEYS_AUDIT_PUBLIC_KEYS"

        /// Reads the two variables; empty values count as unset.
        public static func from(environment: [String: String]) -> Configuration {
            let signing = environment[signingKeyVariable].flatMap { $0.isEmpty ? nil : $0 }
            let publics = (environment[publicKeysVariable] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return Configuration(signingKeyPath: signing, publicKeyPaths: publics)
        }
    }

    /// The signing key, when configured.
    public let signingKey: Ed25519PrivateKey?
    /// Keys whose signatures verification accepts (the signing key's public key first).
    public let trusted: [Ed25519PublicKey]

    public init(signingKey: Ed25519PrivateKey?, trusted: [Ed25519PublicKey] = []) {
        self.signingKey = signingKey
        self.trusted = (signingKey.map { [$0.publicKey] } ?? []) + trusted
    }

    /// Loads the configured files; throws `signing_key` naming the variable at fault.
    public static func load(_ configuration: Configuration) throws(AuditError) -> AuditKeys {
        let signing = try configuration.signingKeyPath.map { path throws(AuditError) in
            if let refusal = KeyFileAccess.refusal(path, setting: Configuration.signingKeyVariable) {
                throw AuditError(.signingKey, refusal, field: Configuration.signingKeyVariable)
            }
            let bytes = try read(path, variable: Configuration.signingKeyVariable)
            do {
                if bytes.count == Ed25519PrivateKey.byteCount { return try Ed25519PrivateKey(rawRepresentation: bytes) }
                return try Ed25519PrivateKey(pem: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw AuditError(
                    .signingKey,
                    "\(Configuration.signingKeyVariable) (\(path)) is not an Ed25519 private key "
                        + "(PKCS#8 PEM or 32 raw bytes)", field: Configuration.signingKeyVariable)
            }
        }
        var trusted: [Ed25519PublicKey] = []
        for path in configuration.publicKeyPaths {
            let bytes = try read(path, variable: Configuration.publicKeysVariable)
            do {
                trusted.append(
                    bytes.count == Ed25519PublicKey.byteCount
                        ? try Ed25519PublicKey(rawRepresentation: bytes)
                        : try Ed25519PublicKey(pem: String(decoding: bytes, as: UTF8.self)))
            } catch {
                throw AuditError(
                    .signingKey,
                    "\(Configuration.publicKeysVariable): \(path) is not an Ed25519 public key "
                        + "(PEM or 32 raw bytes)", field: Configuration.publicKeysVariable)
            }
        }
        return AuditKeys(signingKey: signing, trusted: trusted)
    }

    /// Generates a key, writes it as PKCS#8 PEM to `path` with mode 0600 (refusing to replace an
    /// existing file) and returns it.
    public static func generate(writingTo path: String) throws -> Ed25519PrivateKey {
        let key = Ed25519PrivateKey.generate()
        let pem = try key.pemPKCS8
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "it already exists" : String(cString: strerror(errno))
            throw AuditError(.signingKey, "cannot create \(path): \(reason)", field: "output")
        }
        defer { close(fd) }
        let bytes = Array(pem.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw AuditError(.signingKey, "could not write \(path)", field: "output") }
        return key
    }

    private static func read(_ path: String, variable: String) throws(AuditError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AuditError(.signingKey, "\(variable): cannot read key file \(path)", field: variable)
        }
        return data
    }
}
