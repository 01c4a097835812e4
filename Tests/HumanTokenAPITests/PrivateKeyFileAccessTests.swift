import Foundation
import HumanTokenAPI
import Testing

/// Issue 23: a Unico private key file others may write is refused, naming the setting; one
/// others may read still loads (with a warning on standard error).
@Suite struct PrivateKeyFileAccessTests {
    @Test func writableKeyFilesAreRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unico-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TestKeys.accountPKCS1.write(toFile: path, atomically: false, encoding: .utf8)
        let source = PrivateKeySource.file(path)
        chmod(path, 0o600)
        _ = try source.load(setting: "UNICO_PROD_PRIVATE_KEY_FILE")
        chmod(path, 0o644)
        _ = try source.load(setting: "UNICO_PROD_PRIVATE_KEY_FILE")
        for mode in [0o620, 0o606, 0o666] {
            chmod(path, mode_t(mode))
            let error = #expect(throws: HumanTokenAPIError.self) { try source.load(setting: "UNICO_PROD_PRIVATE_KEY_FILE") }
            #expect(error?.field == "UNICO_PROD_PRIVATE_KEY_FILE")
            #expect(error?.message.contains("writable by its group or other users") == true)
        }
    }
}
