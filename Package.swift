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
        // C shims
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),

        // Infrastructure
        .target(name: "Postgres", dependencies: ["CLibPQ", "Cryptography", "ErrorCodes"]),
        .target(name: "Cryptography", dependencies: ["COpenSSL", "ErrorCodes", "JSONBytes"]),
        .target(name: "OutboundHTTP", dependencies: ["COpenSSL", "ErrorCodes"]),
        .target(name: "EmbeddedPostgres", dependencies: ["Postgres", "ErrorCodes"]),
        .target(name: "Migrations", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),
        .target(name: "EventStore", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "ErrorCodes", "Observability"]),
        .target(name: "CLI", dependencies: ["Timestamps", "ErrorCodes"]),
        .target(
            name: "HumanTokenAPI",
            dependencies: ["Cryptography", "ErrorCodes", "JSONBytes", "Observability", "OutboundHTTP", "Timestamps"]),
        .target(name: "RateBudget", dependencies: ["Postgres", "HumanTokenAPI"]),
        .target(name: "UnicoEmulator", dependencies: ["HTTPServer", "Cryptography", "ErrorCodes", "JSONBytes"]),
        .target(name: "SDKLiteSimulator"),
        .target(name: "Observability", dependencies: ["Timestamps"]),
        .target(name: "Lifecycle", dependencies: ["ErrorCodes"]),
        .target(
            name: "Projections",
            dependencies: ["Postgres", "EventStore", "JourneyDomain", "JSONBytes", "Timestamps", "Lifecycle"]),
        .target(
            name: "OutboundWebhooks",
            dependencies: [
                "Postgres", "Cryptography", "EventStore", "JourneyDomain", "Privacy", "AccessControl", "Lifecycle", "Timestamps",
                "OutboundHTTP", "ErrorCodes",
            ]),
        .target(name: "Reports", dependencies: ["Postgres", "JourneyDomain", "Timestamps", "ErrorCodes"]),
        .target(
            name: "Audit",
            dependencies: [
                "Postgres", "EventStore", "Cryptography", "JourneyDomain", "Timestamps", "ErrorCodes",
            ]),
        .target(
            name: "JourneyAPI",
            dependencies: [
                "HTTPServer", "Observability", "Postgres", "Migrations", "EventStore", "JourneyDomain",
                "JourneyEngine", "Privacy", "AccessControl", "HumanTokenAPI", "Cryptography", "Reports", "Audit", "Projections",
                "Lifecycle", "DataSubjects", "OutboundWebhooks", "RateBudget", "JSONBytes",
            ]),
        .target(
            name: "Workers",
            dependencies: [
                "Postgres", "EventStore", "JourneyDomain", "JourneyEngine", "HumanTokenAPI", "Observability", "Lifecycle",
                "ErrorCodes",
            ]),
        .target(
            name: "JourneyEngine",
            dependencies: [
                "Audit", "EventStore", "JourneyDomain", "Observability", "Postgres", "Privacy", "HumanTokenAPI",
                "ErrorCodes",
            ]),
        .target(name: "Privacy", dependencies: ["Postgres", "Cryptography", "JourneyDomain", "ErrorCodes"]),
        .target(
            name: "DataSubjects",
            dependencies: [
                "Audit", "JourneyDomain", "JourneyEngine", "Postgres", "Privacy", "Timestamps", "ErrorCodes",
            ]),
        .target(
            name: "Retention",
            dependencies: [
                "DataSubjects", "JourneyDomain", "JourneyEngine", "Postgres", "Lifecycle", "Observability", "Projections",
                "OutboundWebhooks", "ErrorCodes",
            ]),
        .target(name: "AccessControl", dependencies: ["Postgres", "Cryptography", "ErrorCodes"]),

        // Domain
        .target(name: "JourneyDomain", dependencies: ["Timestamps", "ErrorCodes", "JSONBytes"]),
        .target(name: "JSONBytes", dependencies: ["ErrorCodes"]),
        .target(name: "Timestamps"),
        .target(name: "ErrorCodes"),
        .target(name: "JourneyClient"),

        // Composition root, commands, benchmarks and the executables
        .target(
            name: "JourneyApp",
            dependencies: [
                "AccessControl", "CLI", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI", "JourneyDomain",
                "JourneyAPI", "Migrations", "OutboundWebhooks", "Postgres", "Privacy", "RateBudget", "UnicoEmulator", "Workers",
                "Lifecycle", "Observability", "Projections", "DataSubjects", "JourneyEngine", "Retention", "ErrorCodes",
            ]),
        .target(
            name: "JourneyBenchmarks",
            dependencies: [
                "CLI", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI", "JourneyApp", "JourneyDomain",
                "JourneyEngine", "Migrations", "Postgres", "Projections", "Reports", "Workers", "JourneyAPI", "Observability",
            ]),
        .target(
            name: "JourneyCommands",
            dependencies: [
                "AccessControl", "Audit", "CLI", "Cryptography", "EmbeddedPostgres", "EventStore", "HTTPServer", "HumanTokenAPI",
                "JourneyApp", "JourneyDomain", "JourneyAPI", "Migrations", "OutboundWebhooks", "Postgres",
                "Privacy", "Projections", "Reports", "SDKLiteSimulator", "Timestamps", "UnicoEmulator", "Workers", "Lifecycle",
                "DataSubjects", "JourneyEngine", "Retention",
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
                "JourneyAPI", "JourneyEngine", "HTTPServer", "Postgres", "Projections", "JourneyCommands", "Timestamps",
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
