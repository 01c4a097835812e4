import Cryptography

extension UnicoEmulator {
    /// A service account the token endpoint accepts assertions from.
    public struct ServiceAccount: Sendable {
        /// The tenant (company) id, the part of `iss` after `@`.
        public var tenantID: String
        /// The account name, the part of `iss` before `@`.
        public var name: String
        /// The environment whose token host this account's assertions must name as `aud`.
        public var environment: Environment
        /// Verifies the account's RS256 assertions.
        public var publicKey: RSAPublicKey

        /// Creates an account from its public key.
        public init(tenantID: String, name: String, environment: Environment, publicKey: RSAPublicKey) {
            self.tenantID = tenantID
            self.name = name
            self.environment = environment
            self.publicKey = publicKey
        }

        /// Creates an account from a `BEGIN PUBLIC KEY` or `BEGIN RSA PUBLIC KEY` PEM.
        public init(tenantID: String, name: String, environment: Environment, publicKeyPEM: String) throws {
            self.init(
                tenantID: tenantID, name: name, environment: environment,
                publicKey: try RSAPublicKey(pem: publicKeyPEM))
        }

        /// The `iss` claim this account signs with: `<name>@<tenant>.iam.acesso.io`.
        public var issuer: String { "\(name)@\(tenantID).iam.acesso.io" }
    }
}
