import Cryptography

/// The service account key, generated once per run (RSA generation is slow).
enum TestKeys {
    static let account: RSAPrivateKey = try! RSAPrivateKey.generate()
    static var accountPKCS8: String { try! account.pemPKCS8 }
}
