import Cryptography
import Foundation
import JSONBytes

/// A freshly generated service account for local runs: the emulator keeps the public half, the
/// client gets the private key PEM (written to a file with mode 0600).
public struct DevelopmentServiceAccount: Sendable {
    public let account: UnicoEmulator.ServiceAccount
    public let privateKey: RSAPrivateKey

    /// Generates a 2048-bit RSA key for `name@tenantID.iam.acesso.io` in `environment`.
    public static func generate(
        tenantID: String = "dev-tenant", name: String = "journeys", environment: UnicoEmulator.Environment = .uat
    ) throws(EmulatorError) -> DevelopmentServiceAccount {
        do {
            let key = try RSAPrivateKey.generate(bits: 2048)
            return DevelopmentServiceAccount(
                account: .init(tenantID: tenantID, name: name, environment: environment, publicKey: key.publicKey),
                privateKey: key)
        } catch {
            throw EmulatorError(.keyMaterial, "could not generate an RSA key")
        }
    }

    /// The private key as PKCS#8 PEM, for the client's key file.
    public func privateKeyPEM() throws(EmulatorError) -> String {
        do {
            return try privateKey.pemPKCS8
        } catch {
            throw EmulatorError(.keyMaterial, "could not encode the private key")
        }
    }

    /// Writes the PKCS#8 PEM to `path`, readable by the owner only; replaces an existing file.
    public func writePrivateKey(to path: String) throws(EmulatorError) {
        let pem = try privateKeyPEM()
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.removeItem(at: url)
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600])
        else { throw EmulatorError(.keyMaterial, "could not write the private key file") }
    }

    /// A documented five-claim RS256 assertion for this account, as the real client builds it.
    public func assertion(audience: String? = nil, issuedAt: Date, lifetime: TimeInterval = 3600) throws(EmulatorError) -> String
    {
        let iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        let claims: [String: JSONValue] = [
            "iss": .string(account.issuer),
            "aud": .string(audience ?? account.environment.defaultTokenHost),
            "scope": "*",
            "iat": .integer(iat),
            "exp": .integer(iat + Int(lifetime)),
        ]
        do {
            return try JWT.sign(claims: claims, with: .rs256(privateKey))
        } catch {
            throw EmulatorError(.keyMaterial, "could not sign the assertion")
        }
    }
}
