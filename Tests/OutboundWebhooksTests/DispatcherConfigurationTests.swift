import Foundation
import OutboundWebhooks
import Testing

@Suite struct DispatcherConfigurationTests {
    @Test func aCAFileThatHoldsNoCertificateIsRefusedNamingTheVariable() throws {
        #expect(try WebhookDispatcher.Configuration.trustedCertificates(nil) == nil)
        #expect(try WebhookDispatcher.Configuration.trustedCertificates("  ") == nil)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-ca-\(UUID().uuidString).pem").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("-----BEGIN NOTHING-----\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for candidate in [path, "/nonexistent/ca.pem"] {
            #expect {
                _ = try WebhookDispatcher.Configuration.trustedCertificates(candidate)
            } throws: { error in
                let error = try #require(error as? WebhookError)
                return error.code == .invalidConfiguration
                    && error.message.hasPrefix("JOURNEYS_WEBHOOK_CA_FILE: the CA file \(candidate) ")
            }
        }
    }
}
