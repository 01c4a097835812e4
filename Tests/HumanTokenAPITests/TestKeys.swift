import Cryptography
import Foundation

/// RSA keys generated once per test run.
enum TestKeys {
    /// The service account's key, the one the emulator knows.
    static let account: RSAPrivateKey = try! RSAPrivateKey.generate()
    /// A key the emulator does not know.
    static let stranger: RSAPrivateKey = try! RSAPrivateKey.generate()

    static var accountPKCS8: String { try! account.pemPKCS8 }
    static var accountPKCS1: String { try! account.pemPKCS1 }
    static var strangerPKCS8: String { try! stranger.pemPKCS8 }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("htapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
