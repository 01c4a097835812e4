import Foundation
import HumanTokenAPI
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    func error(_ body: () throws -> some Any) -> HumanTokenAPIError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? HumanTokenAPIError
        }
    }

    @Test func documentedHostsAndDefaults() throws {
        let uat = HumanTokenAPIConfiguration(
            environment: .uat, serviceAccount: "sa", tenant: "acme", privateKey: .pem(TestKeys.accountPKCS8))
        #expect(uat.tokenHost.absoluteString == "https://identityhomolog.acesso.io")
        #expect(uat.apiHost.absoluteString == "https://api.idcloud.uat.unico.app")
        #expect(uat.requestTimeout == 10)
        #expect(uat.tokenRefreshMargin == 60)
        #expect(uat.rateLimit == 10)
        #expect(uat.issuer == "sa@acme.iam.acesso.io")
        #expect(uat.audience == "https://identityhomolog.acesso.io")
        #expect(uat.tokenEndpoint.absoluteString == "https://identityhomolog.acesso.io/oauth2/token")
        #expect(uat.lookup == .none, "Unico documents no search by clientReference")
        try uat.validate()
        let prod = HumanTokenAPIConfiguration(
            environment: .prod, serviceAccount: "sa", tenant: "acme", privateKey: .pem(TestKeys.accountPKCS1),
            tokenHost: URL(string: "https://identity.example/")!)
        #expect(prod.apiHost.absoluteString == "https://api.idcloud.unico.app")
        #expect(prod.audience == "https://identity.example")
        #expect(prod.apiURL("/processes").absoluteString == "https://api.idcloud.unico.app/processes")
        try prod.validate()
    }

    @Test func fromEnvironmentVariablesWithKeyFile() throws {
        let directory = try TestKeys.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("prod.pem")
        try TestKeys.accountPKCS1.write(to: keyFile, atomically: true, encoding: .utf8)
        let variables = [
            "UNICO_PROD_SERVICE_ACCOUNT": "journeys", "UNICO_PROD_TENANT": "acme",
            "UNICO_PROD_PRIVATE_KEY_FILE": keyFile.path, "UNICO_PROD_API_HOST": "https://api.cadastro.unico.app",
            "UNICO_PROD_REQUEST_TIMEOUT": "4.5", "UNICO_PROD_TOKEN_REFRESH_MARGIN": "30", "UNICO_PROD_RATE_LIMIT": "5",
            "UNICO_UAT_TENANT": "other",
        ]
        let configuration = try HumanTokenAPIConfiguration.fromEnvironment(variables, environment: .prod)
        #expect(configuration.environment == .prod)
        #expect(configuration.tokenHost.absoluteString == "https://identity.acesso.io")
        #expect(configuration.apiHost.absoluteString == "https://api.cadastro.unico.app")
        #expect(configuration.issuer == "journeys@acme.iam.acesso.io")
        #expect(configuration.privateKey == .file(keyFile.path))
        #expect(configuration.requestTimeout == 4.5)
        #expect(configuration.tokenRefreshMargin == 30)
        #expect(configuration.rateLimit == 5)
    }

    @Test func lookupDefaultsToNoneFromVariablesAndFilesAndSearchStaysAvailable() throws {
        let base = ["UNICO_UAT_SERVICE_ACCOUNT": "sa", "UNICO_UAT_TENANT": "t1", "UNICO_UAT_PRIVATE_KEY": TestKeys.accountPKCS8]
        #expect(try HumanTokenAPIConfiguration.fromEnvironment(base, environment: .uat).lookup == .none)
        let search = try HumanTokenAPIConfiguration.fromEnvironment(
            base.merging(["UNICO_UAT_LOOKUP": "search"]) { $1 }, environment: .uat)
        #expect(search.lookup == .search)

        let directory = try TestKeys.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestKeys.accountPKCS1.write(to: directory.appendingPathComponent("k.pem"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("unico.json")
        try Data(
            #"""
            {"uat": {"serviceAccount": "sa", "tenant": "t1", "privateKeyFile": "k.pem"},
             "prod": {"serviceAccount": "sa", "tenant": "t1", "privateKeyFile": "k.pem", "lookup": "search"}}
            """#.utf8
        ).write(to: file)
        #expect(try HumanTokenAPIConfiguration.load(contentsOf: file, environment: .uat).lookup == .none)
        #expect(try HumanTokenAPIConfiguration.load(contentsOf: file, environment: .prod).lookup == .search)
    }

    @Test func fromEnvironmentWithInlinePEM() throws {
        let configuration = try HumanTokenAPIConfiguration.fromEnvironment(
            ["UNICO_UAT_SERVICE_ACCOUNT": "sa", "UNICO_UAT_TENANT": "t1", "UNICO_UAT_PRIVATE_KEY": TestKeys.accountPKCS8],
            environment: .uat)
        #expect(configuration.privateKey == .pem(TestKeys.accountPKCS8))
        #expect(configuration.tokenHost.absoluteString == "https://identityhomolog.acesso.io")
    }

    @Test(
        arguments: [
            ("UNICO_UAT_TENANT", nil, "UNICO_UAT_TENANT"),
            ("UNICO_UAT_SERVICE_ACCOUNT", nil, "UNICO_UAT_SERVICE_ACCOUNT"),
            ("UNICO_UAT_PRIVATE_KEY_FILE", nil, "UNICO_UAT_PRIVATE_KEY_FILE"),
            ("UNICO_UAT_PRIVATE_KEY_FILE", "/nonexistent/key.pem", "UNICO_UAT_PRIVATE_KEY_FILE"),
            ("UNICO_UAT_TOKEN_HOST", "http://identity.example", "UNICO_UAT_TOKEN_HOST"),
            ("UNICO_UAT_API_HOST", "not a url", "UNICO_UAT_API_HOST"),
            ("UNICO_UAT_REQUEST_TIMEOUT", "ten", "UNICO_UAT_REQUEST_TIMEOUT"),
            ("UNICO_UAT_REQUEST_TIMEOUT", "0", "UNICO_UAT_REQUEST_TIMEOUT"),
            ("UNICO_UAT_RATE_LIMIT", "-1", "UNICO_UAT_RATE_LIMIT"),
            ("UNICO_UAT_TOKEN_REFRESH_MARGIN", "-5", "UNICO_UAT_TOKEN_REFRESH_MARGIN"),
            ("UNICO_UAT_TENANT", "acme corp", "UNICO_UAT_TENANT"),
        ] as [(String, String?, String)])
    func environmentErrorsNameTheVariable(variable: String, value: String?, named: String) throws {
        let directory = try TestKeys.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("uat.pem")
        try TestKeys.accountPKCS8.write(to: keyFile, atomically: true, encoding: .utf8)
        var variables = [
            "UNICO_UAT_SERVICE_ACCOUNT": "sa", "UNICO_UAT_TENANT": "acme", "UNICO_UAT_PRIVATE_KEY_FILE": keyFile.path,
        ]
        variables[variable] = value
        let failure = try #require(error { try HumanTokenAPIConfiguration.fromEnvironment(variables, environment: .uat) })
        #expect(failure.code == .configuration)
        #expect(failure.field == named)
        #expect(failure.message.contains(named))
    }

    @Test func aKeyThatIsNotAKeyIsNamedAndNotPrinted() throws {
        let notAKey = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----\n"
        let failure = try #require(
            error {
                try HumanTokenAPIConfiguration.fromEnvironment(
                    ["UNICO_UAT_SERVICE_ACCOUNT": "sa", "UNICO_UAT_TENANT": "t", "UNICO_UAT_PRIVATE_KEY": notAKey],
                    environment: .uat)
            })
        #expect(failure.field == "UNICO_UAT_PRIVATE_KEY")
        #expect(!failure.description.contains("c2VjcmV0"))
        let both = try #require(
            error {
                try HumanTokenAPIConfiguration.fromEnvironment(
                    [
                        "UNICO_UAT_SERVICE_ACCOUNT": "sa", "UNICO_UAT_TENANT": "t",
                        "UNICO_UAT_PRIVATE_KEY": TestKeys.accountPKCS8,
                        "UNICO_UAT_PRIVATE_KEY_FILE": "/tmp/x.pem",
                    ],
                    environment: .uat)
            })
        #expect(both.field == "UNICO_UAT_PRIVATE_KEY_FILE")
    }

    @Test func fromJSONFileWithRelativeKeyFile() throws {
        let directory = try TestKeys.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestKeys.accountPKCS8.write(to: directory.appendingPathComponent("uat.pem"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("unico.json")
        try Data(
            """
            {"uat": {"serviceAccount": "sa", "tenant": "acme", "privateKeyFile": "uat.pem",
                     "apiHost": "http://127.0.0.1:8080", "tokenHost": "http://localhost:8081/",
                     "requestTimeout": 2, "tokenRefreshMargin": 0, "rateLimit": 2.5},
             "prod": {"tenant": "x"}}
            """.utf8
        ).write(to: file)
        let configuration = try HumanTokenAPIConfiguration.load(contentsOf: file, environment: .uat)
        #expect(configuration.privateKey == .file(directory.appendingPathComponent("uat.pem").path))
        #expect(configuration.apiHost.absoluteString == "http://127.0.0.1:8080")
        #expect(configuration.audience == "http://localhost:8081")
        #expect(configuration.requestTimeout == 2)
        #expect(configuration.tokenRefreshMargin == 0)
        #expect(configuration.rateLimit == 2.5)

        let prod = try #require(error { try HumanTokenAPIConfiguration.load(contentsOf: file, environment: .prod) })
        #expect(prod.field == "prod.serviceAccount")
    }

    @Test(arguments: [
        (#"{"uat": {"serviceAccount": "sa", "tenant": "acme"}}"#, "uat.privateKeyFile"),
        (#"{"uat": {"serviceAccount": "sa", "tenant": "acme", "privateKeyFile": "missing.pem"}}"#, "uat.privateKeyFile"),
        (#"{"uat": {"serviceAccount": "sa", "tenant": "", "privateKey": "x"}}"#, "uat.tenant"),
        (#"{"uat": {"serviceAccount": "sa", "tenant": "a", "privateKey": "x", "tokenHost": "ftp://x"}}"#, "uat.tokenHost"),
        (#"{"uat": {"serviceAccount": "sa", "tenant": "a", "privateKey": "x", "rateLimit": true}}"#, "uat.rateLimit"),
        (#"{"uat": {"serviceAccount": "sa", "tenant": "a", "privateKey": "x", "tennant": "b"}}"#, "uat.tennant"),
        (#"{"uat": {"serviceAccount": "sa", "tenant": "a", "privateKey": "not a pem"}}"#, "uat.privateKey"),
        (#"{"prod": {}}"#, "uat"),
    ])
    func fileErrorsNameTheSetting(json: String, named: String) throws {
        let directory = try TestKeys.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("unico.json")
        try Data(json.utf8).write(to: file)
        let failure = try #require(error { try HumanTokenAPIConfiguration.load(contentsOf: file, environment: .uat) })
        #expect(failure.code == .configuration)
        #expect(failure.field == named)
    }

    @Test func unreadableFileIsNamed() throws {
        let failure = try #require(
            error {
                try HumanTokenAPIConfiguration.load(
                    contentsOf: URL(fileURLWithPath: "/nonexistent/unico.json"), environment: .uat)
            })
        #expect(failure.field == "/nonexistent/unico.json")
    }

    @Test func descriptionsNeverShowTheKey() throws {
        let configuration = HumanTokenAPIConfiguration(
            environment: .uat, serviceAccount: "sa", tenant: "acme", privateKey: .pem(TestKeys.accountPKCS8))
        let keyBody = TestKeys.accountPKCS8.split(separator: "\n")[1]
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [
            configuration.description, String(describing: configuration), String(reflecting: configuration),
            "\(configuration.privateKey)", dumped,
        ] {
            #expect(!text.contains(keyBody))
            #expect(!text.contains("BEGIN"))
        }
        #expect(configuration.description.contains("sa@acme.iam.acesso.io"))
    }
}
