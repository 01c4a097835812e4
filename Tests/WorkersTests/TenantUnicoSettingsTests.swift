import Foundation
import HumanTokenAPI
import JourneyAPI
@testable import JourneyApp
import JourneyDomain
import JourneyTesting
import Testing

/// A tenant's own Unico settings (its own service account) in the settings file, and which
/// client a journey of each tenant uses.
@Suite struct TenantUnicoSettingsTests {
    @Test func aTenantUsesItsOwnServiceAccountWhereItHasOneAndTheDeploymentsElsewhere() async throws {
        try await TestDatabase.with { db in
            let key = try UnicoSettingsFixture()
            let file = key.directory.appendingPathComponent("unico.json")
            try Data(
                #"""
                {"uat": {"serviceAccount": "svc", "tenant": "deploy", "privateKeyFile": "key.pem"},
                 "prod": {"serviceAccount": "svc", "tenant": "deploy", "privateKeyFile": "key.pem"},
                 "tenants": {"acme": {"uat": {"serviceAccount": "acme-backend", "tenant": "acmeco", "privateKeyFile": "key.pem",
                                              "rateLimit": 4}}}}
                """#.utf8
            ).write(to: file)
            let deployment = try UnicoSettings.configurations([:], file: file.path)
            #expect(deployment[.uat]?.issuer == "svc@deploy.iam.acesso.io")
            let tenants = try UnicoSettings.tenantConfigurations([UnicoSettings.fileVariable: file.path])
            #expect(Set(tenants.keys) == ["acme"])
            #expect(tenants["acme"]?[.uat]?.issuer == "acme-backend@acmeco.iam.acesso.io")
            #expect(tenants["acme"]?[.prod] == nil)
            #expect(try UnicoSettings.tenantConfigurations([:]).isEmpty, "no file: no tenant settings")

            var dependencies = try JourneyDependencies.development(
                database: db.app,
                unico: try deployment.mapValues {
                    try UnicoSettings.client($0, share: 1, sharedWith: db.app)
                })
            dependencies.engine.tenantUnico = try tenants.mapValues { environments in
                try environments.mapValues { try UnicoSettings.client($0, share: 1, sharedWith: db.app) }
            }
            let engine = dependencies.engine
            #expect(engine.unicoClient(.uat, tenant: "acme")?.configuration.issuer == "acme-backend@acmeco.iam.acesso.io")
            #expect(engine.unicoClient(.uat, tenant: "acme")?.configuration.rateLimit == 4)
            #expect(engine.unicoClient(.prod, tenant: "acme")?.configuration.issuer == "svc@deploy.iam.acesso.io")
            for tenant in [nil, "default", "globex"] {
                #expect(
                    engine.unicoClient(.uat, tenant: tenant)?.configuration.issuer == "svc@deploy.iam.acesso.io",
                    "\(tenant ?? "nil")")
            }
            #expect(engine.allUnicoClients.count == 3)

            // A file with only tenants' settings is enough to start.
            try Data(
                #"{"tenants": {"acme": {"prod": {"serviceAccount": "a", "tenant": "b", "privateKeyFile": "key.pem"}}}}"#.utf8
            )
            .write(to: file)
            #expect(try UnicoSettings.configurations([:], file: file.path).isEmpty)
        }
    }

    @Test func badTenantSettingsAreRefusedNamingTheKeyPath() throws {
        let key = try UnicoSettingsFixture()
        let file = key.directory.appendingPathComponent("unico.json")
        for (text, named) in [
            (#"{"tenants": []}"#, "\"tenants\" must be an object"),
            (#"{"tenants": {"Bad Name": {"uat": {}}}}"#, "tenants.Bad Name: invalid tenant name"),
            (#"{"tenants": {"acme": {}}}"#, "tenants.acme must be an object"),
            (#"{"tenants": {"acme": {"staging": {}}}}"#, "tenants.acme.staging is not an environment"),
            (#"{"tenants": {"acme": {"uat": {"tenant": "x", "privateKeyFile": "key.pem"}}}}"#, "tenants.acme.uat.serviceAccount"),
        ] {
            try Data(text.utf8).write(to: file)
            let error = #expect(throws: (any Error).self) { try UnicoSettings.tenantConfigurations([:], file: file.path) }
            #expect(error.map { String(describing: $0) }?.contains(named) == true, "\(text): \(String(describing: error))")
        }
    }
}
