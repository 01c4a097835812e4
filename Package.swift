// swift-tools-version:6.0
import PackageDescription

// Swift 6 language mode (strict concurrency) for every target.
let package = Package(
    name: "HumanTokenJourneys",
    // iOS 13 is for the JourneyClient library (the SDK Lite's minimum); the server builds on Linux and macOS.
    platforms: [.macOS(.v14), .iOS(.v13)],
    products: [
        .executable(name: "journeys", targets: ["journeys"]),
        // The benchmarks, apart so that `journeys` does not link them; `journeys bench …` runs this one.
        .executable(name: "journeys-bench", targets: ["journeys-bench"]),
        .library(name: "JourneyClient", targets: ["JourneyClient"]),
    ],
    targets: [
        // Layers, bottom up: each target is declared after every target it depends on
        // (ops/check-layers.sh), so a section uses only its own and the sections above it.

        // C libraries from Debian, wrapped (module.modulemap + shim.h)
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),

        // Standalone: the iOS app's client and the SDK Lite device simulator depend on nothing here
        .target(name: "JourneyClient"),
        .target(name: "SDKLiteSimulator"),

        // Foundations: one of each utility, nothing of journeys
        .target(name: "ErrorCodes"),
        .target(name: "Timestamps"),
        .target(name: "JSONBytes", dependencies: ["ErrorCodes"]),
        .target(name: "Lifecycle", dependencies: ["ErrorCodes"]),
        .target(name: "Observability", dependencies: ["Timestamps"]),
        .target(name: "CLI", dependencies: ["Timestamps", "ErrorCodes"]),
        .target(name: "OutboundHTTP", dependencies: ["COpenSSL", "ErrorCodes"]),
        .target(name: "Cryptography", dependencies: ["COpenSSL", "ErrorCodes", "JSONBytes"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "ErrorCodes", "Observability"]),
        .target(name: "Postgres", dependencies: ["CLibPQ", "Cryptography", "ErrorCodes"]),

        // Domain: pure values and decisions
        .target(name: "JourneyDomain", dependencies: ["Timestamps", "ErrorCodes", "JSONBytes"]),

        // Adapters: Unico (client, emulator), PostgreSQL (cluster, schema, the event log), keys, personal data, rates, reports
        .target(
            name: "HumanTokenAPI",
            dependencies: ["Cryptography", "ErrorCodes", "JSONBytes", "Observability", "OutboundHTTP", "Timestamps"]),
        .target(name: "UnicoEmulator", dependencies: ["HTTPServer", "Cryptography", "ErrorCodes", "JSONBytes"]),
        .target(name: "EmbeddedPostgres", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),
        .target(name: "Migrations", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),
        .target(name: "EventStore", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),
        .target(name: "AccessControl", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),
        .target(name: "Privacy", dependencies: ["Postgres", "Cryptography", "JourneyDomain", "ErrorCodes"]),
        .target(name: "RateBudget", dependencies: ["Postgres", "HumanTokenAPI"]),
        .target(name: "Reports", dependencies: ["Postgres", "JourneyDomain", "Timestamps", "ErrorCodes"]),

        // Over the log: read models, audit, the company's webhooks
        .target(
            name: "Projections",
            dependencies: ["Postgres", "EventStore", "JourneyDomain", "JSONBytes", "Timestamps", "Lifecycle"]),
        .target(
            name: "Audit",
            dependencies: [
                "Postgres", "EventStore", "Cryptography", "JourneyDomain", "Timestamps", "ErrorCodes",
            ]),
        .target(
            name: "OutboundWebhooks",
            dependencies: [
                "Postgres", "Cryptography", "EventStore", "JourneyDomain", "Privacy", "AccessControl", "Lifecycle", "Timestamps",
                "OutboundHTTP", "ErrorCodes",
            ]),

        // Use cases: the engine and the services over it
        .target(
            name: "JourneyEngine",
            dependencies: [
                "Audit", "EventStore", "JourneyDomain", "Observability", "Postgres", "Privacy", "HumanTokenAPI",
                "ErrorCodes",
            ]),
        .target(
            name: "DataSubjects",
            dependencies: [
                "Audit", "JourneyDomain", "JourneyEngine", "Postgres", "Privacy", "Timestamps", "ErrorCodes",
            ]),
        .target(
            name: "Workers",
            dependencies: [
                "Postgres", "EventStore", "JourneyDomain", "JourneyEngine", "HumanTokenAPI", "Observability", "Lifecycle",
                "ErrorCodes",
            ]),
        .target(
            name: "Retention",
            dependencies: [
                "DataSubjects", "JourneyDomain", "JourneyEngine", "Postgres", "Lifecycle", "Observability", "Projections",
                "OutboundWebhooks", "ErrorCodes",
            ]),

        // The HTTP surface
        .target(
            name: "JourneyAPI",
            dependencies: [
                "HTTPServer", "Observability", "Postgres", "Migrations", "EventStore", "JourneyDomain",
                "JourneyEngine", "Privacy", "AccessControl", "HumanTokenAPI", "Cryptography", "Reports", "Audit", "Projections",
                "Lifecycle", "DataSubjects", "OutboundWebhooks", "RateBudget", "JSONBytes",
            ]),

        // The composition root
        .target(
            name: "JourneyApp",
            dependencies: [
                "AccessControl", "CLI", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI", "JourneyDomain",
                "JourneyAPI", "Migrations", "OutboundWebhooks", "Postgres", "Privacy", "RateBudget", "UnicoEmulator", "Workers",
                "Lifecycle", "Observability", "Projections", "DataSubjects", "JourneyEngine", "Retention", "ErrorCodes",
            ]),

        // Commands, benchmarks and the executables
        .target(
            name: "JourneyCommands",
            dependencies: [
                "AccessControl", "Audit", "CLI", "Cryptography", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI",
                "JourneyApp", "JourneyDomain", "JourneyAPI", "Migrations", "OutboundWebhooks", "Postgres",
                "Privacy", "Projections", "Reports", "SDKLiteSimulator", "Timestamps", "UnicoEmulator", "Workers", "Lifecycle",
                "DataSubjects", "JourneyEngine", "Retention",
            ]),
        .target(
            name: "JourneyBenchmarks",
            dependencies: [
                "CLI", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI", "JourneyApp", "JourneyDomain",
                "JourneyEngine", "Migrations", "Postgres", "Projections", "Reports", "Workers", "JourneyAPI", "Observability",
            ]),
        .executableTarget(name: "journeys", dependencies: ["CLI", "Cryptography", "JourneyCommands"]),
        .executableTarget(name: "journeys-bench", dependencies: ["CLI", "Cryptography", "JourneyBenchmarks"]),

        // Test support and tests
        .target(
            name: "JourneyTesting",
            dependencies: [
                "AccessControl", "Cryptography", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI", "JourneyAPI",
                "JourneyApp", "JourneyDomain", "JourneyEngine", "Migrations", "Observability", "Postgres", "Projections",
                "UnicoEmulator", "Workers",
            ]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "EmbeddedPostgres", "JourneyTesting"]),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "Migrations", "JourneyTesting", "Postgres"]),
        .testTarget(name: "CryptographyTests", dependencies: ["Cryptography", "JSONBytes"]),
        .testTarget(name: "JSONBytesTests", dependencies: ["JSONBytes"]),
        .testTarget(name: "TimestampsTests", dependencies: ["Timestamps"]),
        .testTarget(name: "ErrorCodesTests", dependencies: ["ErrorCodes"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "JourneyTesting", "Timestamps"]),
        .testTarget(name: "OutboundHTTPTests", dependencies: ["OutboundHTTP", "COpenSSL", "JourneyTesting"]),
        .testTarget(name: "JourneyDomainTests", dependencies: ["JourneyDomain", "Timestamps"]),
        .testTarget(name: "CLITests", dependencies: ["CLI"]),
        .testTarget(
            name: "UnicoEmulatorTests",
            dependencies: ["UnicoEmulator", "Cryptography", "HTTPServer", "JourneyTesting", "JSONBytes"]),
        .testTarget(name: "RateBudgetTests", dependencies: ["RateBudget", "HumanTokenAPI", "Postgres", "JourneyTesting"]),
        .testTarget(
            name: "HumanTokenAPITests",
            dependencies: [
                "HumanTokenAPI", "UnicoEmulator", "Cryptography", "Timestamps", "JourneyTesting", "HTTPServer", "Observability",
                "OutboundHTTP", "JSONBytes",
            ]),
        .testTarget(
            name: "SDKLiteSimulatorTests",
            dependencies: [
                "SDKLiteSimulator", "UnicoEmulator", "HumanTokenAPI", "Cryptography", "JourneyTesting",
            ]),
        .testTarget(name: "ObservabilityTests", dependencies: ["Observability"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "JourneyTesting"]),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: [
                "Projections", "JourneyTesting", "EventStore", "JourneyDomain", "JourneyEngine", "Postgres", "JSONBytes",
            ]),
        .testTarget(
            name: "OutboundWebhooksTests",
            dependencies: [
                "OutboundWebhooks", "JourneyTesting", "Cryptography", "HTTPServer", "EventStore", "JourneyDomain",
                "JourneyEngine", "AccessControl", "Privacy", "CLI", "Migrations", "JourneyCommands", "Postgres", "Timestamps",
            ]),
        .testTarget(
            name: "JourneyAPITests",
            dependencies: [
                "JourneyAPI", "JourneyEngine", "JourneyTesting", "HTTPServer", "UnicoEmulator", "SDKLiteSimulator",
                "HumanTokenAPI",
                "AccessControl", "JourneyDomain", "EventStore", "Projections", "Postgres", "Observability",
            ]),
        .testTarget(
            name: "JourneyClientTests",
            dependencies: [
                "JourneyClient", "JourneyAPI", "JourneyTesting", "UnicoEmulator", "SDKLiteSimulator", "HumanTokenAPI",
                "AccessControl",
            ]),
        .testTarget(
            name: "JourneyEngineTests",
            dependencies: [
                "JourneyEngine", "JourneyTesting", "EventStore", "JourneyDomain", "Postgres", "HumanTokenAPI",
                "Privacy", "Cryptography", "Migrations",
            ]),
        .testTarget(
            name: "PrivacyTests", dependencies: ["Privacy", "JourneyTesting", "Cryptography", "JourneyDomain", "Postgres"]),
        .testTarget(
            name: "AccessControlTests",
            dependencies: ["AccessControl", "JourneyTesting", "Cryptography", "JSONBytes", "Postgres"]),
        .testTarget(
            name: "ReportsTests",
            dependencies: [
                "Reports", "JourneyTesting", "JourneyDomain", "Projections", "EventStore", "Migrations",
                "Postgres",
                "JourneyCommands", "JourneyAPI", "JourneyEngine", "HTTPServer", "AccessControl", "CLI", "Timestamps",
            ]),
        .testTarget(
            name: "AuditTests",
            dependencies: [
                "Audit", "JourneyTesting", "EventStore", "JourneyDomain", "Cryptography", "CLI",
                "JourneyAPI", "JourneyEngine", "HTTPServer", "Postgres", "JourneyCommands", "Timestamps",
            ]),
        .testTarget(
            name: "WorkersTests",
            dependencies: [
                "Workers", "JourneyTesting", "JourneyAPI", "UnicoEmulator", "SDKLiteSimulator", "HumanTokenAPI",
                "AccessControl", "JourneyDomain", "EventStore", "Projections", "OutboundWebhooks", "HTTPServer",
                "JourneyEngine", "Cryptography", "JourneyApp", "CLI", "JourneyCommands", "Postgres", "Observability",
                "EmbeddedPostgres", "Migrations",
            ]),
        .testTarget(
            name: "JourneyAppTests",
            dependencies: [
                "JourneyApp", "JourneyTesting", "JourneyAPI", "JourneyEngine", "AccessControl", "Workers", "Postgres",
                "EmbeddedPostgres", "JourneyCommands", "Migrations", "Projections", "UnicoEmulator",
            ]),
        .testTarget(
            name: "JourneyCommandsTests",
            dependencies: [
                "JourneyCommands", "JourneyApp", "JourneyTesting", "CLI", "HumanTokenAPI", "AccessControl", "EventStore",
                "Postgres",
            ]),
        .testTarget(
            name: "JourneyBenchmarksTests",
            dependencies: [
                "JourneyBenchmarks", "JourneyTesting", "HTTPServer", "JourneyCommands", "CLI",
            ]),
        .testTarget(
            name: "DataSubjectsTests",
            dependencies: [
                "DataSubjects", "JourneyTesting", "AccessControl", "Audit", "EventStore", "SDKLiteSimulator", "JourneyCommands",
                "Cryptography", "Reports",
            ]),
        .testTarget(
            name: "RetentionTests",
            dependencies: [
                "Retention", "DataSubjects", "JourneyTesting", "JourneyEngine", "JourneyDomain", "EventStore", "SDKLiteSimulator",
                "JourneyCommands", "Postgres", "Cryptography", "Workers",
            ]),
    ]
)
