import Cryptography
import Foundation
import Postgres

extension EmbeddedPostgres {
    /// PostgreSQL's own number of SCRAM-SHA-256 rounds (fixed in PostgreSQL 15).
    public static let defaultSCRAMIterations = 4096

    /// Gives every role a verifier of ``Configuration/scramIterations`` rounds for the password it
    /// has, when that is not PostgreSQL's 4096.
    func applySCRAMIterations(_ status: Status) throws {
        let iterations = configuration.scramIterations
        guard iterations != Self.defaultSCRAMIterations else { return }
        let connection = try PostgresConnection.connect(try PostgresConfiguration(status.superuserURL))
        for role in Self.roles {
            let verifier = Self.scramVerifier(
                password: try password(for: role), salt: [UInt8](SecureRandom.bytes(16)), iterations: iterations)
            try connection.execute(unsafeSQL: EmbeddedPostgresStatements.setPassword(role, password: verifier))
        }
    }

    /// The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802, RFC 7677):
    /// `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, all Base64. PostgreSQL takes
    /// such a string as the password itself (never hashing it again), so the rounds are ours.
    static func scramVerifier(password: String, salt: [UInt8], iterations: Int) -> String {
        // PBKDF2-HMAC-SHA-256, one block: U1 = HMAC(password, salt ‖ 1), Ui = HMAC(password, Ui-1),
        // SaltedPassword = U1 ⊕ … ⊕ Un.
        let key = Data(password.utf8)
        var block = HMACSHA256.authenticate(Data(salt) + Data([0, 0, 0, 1]), key: key)
        var salted = [UInt8](block)
        for _ in 1..<max(1, iterations) {
            block = HMACSHA256.authenticate(block, key: key)
            for (index, byte) in block.enumerated() { salted[index] ^= byte }
        }
        let clientKey = HMACSHA256.authenticate(Data("Client Key".utf8), key: salted)
        let storedKey = SHA256.hash(clientKey)
        let serverKey = HMACSHA256.authenticate(Data("Server Key".utf8), key: salted)
        return "SCRAM-SHA-256$\(iterations):\(Data(salt).base64EncodedString())"
            + "$\(storedKey.base64EncodedString()):\(serverKey.base64EncodedString())"
    }
}
