import Foundation
import JourneyAPI
@testable import JourneyApp
import Testing

/// A tenant's own Unico webhook credentials in the Unico settings file (`tenants.<name>.webhookAuth`).
@Suite struct TenantWebhookSettingsTests {
    static let secret = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8"
    static let account = #""uat": {"serviceAccount": "acme-backend", "tenant": "acmeco", "privateKeyFile": "key.pem"}"#

    @Test func aTenantWithItsOwnAccountMayHaveItsOwnWebhookCredentials() throws {
        let key = try UnicoSettingsFixture()
        let file = key.directory.appendingPathComponent("unico.json")
        try Data(
            """
            {"tenants": {"acme": {\(Self.account), "webhookAuth": "oauth2:acme-unico:\(Self.secret)"},
                         "globex": {\(Self.account)}}}
            """.utf8
        ).write(to: file)
        let own = try UnicoSettings.tenantWebhookAuthentications([
            UnicoSettings.fileVariable: file.path,
            "UNICO_WEBHOOK_TOKEN_LIFETIME": "120",
        ])
        #expect(Set(own.keys) == ["acme"])
        #expect(own["acme"]?.tokenIssuer?.clientID == "acme-unico")
        #expect(own["acme"]?.tokenIssuer?.lifetime == 120)
        #expect(try UnicoSettings.tenantWebhookAuthentications([:]).isEmpty, "no file: none")
        // The environments are still read as before.
        #expect(try UnicoSettings.tenantConfigurations([:], file: file.path)["acme"]?[.uat] != nil)
    }

    @Test func badTenantWebhookCredentialsAreRefusedNamingTheKeyPath() throws {
        let key = try UnicoSettingsFixture()
        let file = key.directory.appendingPathComponent("unico.json")
        let deployment = try WebhookAuthenticator(parsing: "bearer:\(Self.secret)")
        for (text, named) in [
            (
                #"{"tenants": {"acme": {"webhookAuth": "bearer:\#(Self.secret)"}}}"#,
                "tenants.acme.webhookAuth is for a tenant with its own Unico account"
            ),
            (
                #"{"tenants": {"acme": {\#(Self.account), "webhookAuth": "bearer:short"}}}"#,
                "tenants.acme.webhookAuth: the bearer token must be at least 32 random bytes"
            ),
            (#"{"tenants": {"acme": {\#(Self.account), "webhookAuth": 7}}}"#, "tenants.acme.webhookAuth must be a string"),
            (
                #"{"tenants": {"acme": {\#(Self.account), "webhookAuth": "digest:x"}}}"#,
                "tenants.acme.webhookAuth must start with"
            ),
            (
                #"{"tenants": {"acme": {\#(Self.account), "webhookAuth": "bearer:\#(Self.secret)"}}}"#,
                "the same as UNICO_WEBHOOK_AUTH"
            ),
            (
                #"{"tenants": {"acme": {\#(Self.account), "webhookAuth": "header:X-Key:\#(Self.secret)"}, "globex": {\#(Self.account), "webhookAuth": "header:X-Key:\#(Self.secret)"}}}"#,
                "tenants.globex.webhookAuth is the same as tenants.acme.webhookAuth"
            ),
        ] {
            try Data(text.utf8).write(to: file)
            let error = #expect(throws: (any Error).self) {
                try UnicoSettings.tenantWebhookAuthentications([:], file: file.path, deployment: deployment)
            }
            #expect(error.map { String(describing: $0) }?.contains(named) == true, "\(text): \(String(describing: error))")
        }
    }
}
