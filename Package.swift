// swift-tools-version:6.0
import PackageDescription

// Swift 6 language mode (strict concurrency) for every target.
let package = Package(
    name: "HumanTokenJourneys",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "journeys", targets: ["journeys"]),
        .library(name: "JourneyClient", targets: ["JourneyClient"]),
    ],
    targets: [
        // C shims
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),

        // Infrastructure
        .target(name: "Postgres", dependencies: ["CLibPQ"]),
        .target(name: "Cryptography", dependencies: ["COpenSSL"]),
        .target(name: "EmbeddedPostgres", dependencies: ["Postgres"]),
        .target(name: "Migrations", dependencies: ["Postgres", "Cryptography"]),
        .target(name: "EventStore", dependencies: ["Postgres", "Cryptography"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "CLI"),
        .target(name: "HumanTokenAPI", dependencies: ["Cryptography"]),
        .target(name: "RateBudget", dependencies: ["Postgres", "HumanTokenAPI"]),
        .target(name: "UnicoEmulator", dependencies: ["HTTPServer", "Cryptography"]),
        .target(name: "SDKLiteSimulator"),
        .target(name: "Observability"),
        .target(name: "Projections", dependencies: ["Postgres", "EventStore", "JourneyDomain", "JourneyStore"]),
        .target(name: "OutboundWebhooks", dependencies: [
            "Postgres", "Cryptography", "EventStore", "JourneyDomain", "Privacy",
        ]),
        .target(name: "Reports", dependencies: ["Postgres", "JourneyDomain"]),
        .target(name: "Audit", dependencies: ["Postgres", "EventStore", "Cryptography", "JourneyDomain", "JourneyStore"]),
        .target(name: "JourneyAPI", dependencies: [
            "HTTPServer", "Observability", "Postgres", "Migrations", "EventStore", "JourneyStore", "JourneyDomain",
            "JourneyEngine", "Privacy", "AccessControl", "HumanTokenAPI", "Cryptography", "Reports", "Audit",
        ]),
        .target(name: "Workers", dependencies: [
            "Postgres", "EventStore", "JourneyDomain", "JourneyEngine", "HumanTokenAPI", "Observability",
        ]),
        .target(name: "JourneyStore", dependencies: ["EventStore", "JourneyDomain", "Postgres"]),
        .target(name: "JourneyEngine", dependencies: [
            "EventStore", "JourneyDomain", "JourneyStore", "Postgres", "Privacy", "HumanTokenAPI",
        ]),
        .target(name: "Privacy", dependencies: ["Postgres", "Cryptography", "JourneyDomain"]),
        .target(name: "AccessControl", dependencies: ["Postgres", "Cryptography"]),

        // Domain
        .target(name: "JourneyDomain"),
        .target(name: "JourneyClient"),

        // Composition root and executable
        .target(name: "JourneyApp", dependencies: [
            "Postgres", "EmbeddedPostgres", "Migrations", "EventStore", "Cryptography", "HTTPServer",
            "JourneyDomain", "CLI", "UnicoEmulator", "HumanTokenAPI", "SDKLiteSimulator", "Privacy", "AccessControl", "JourneyStore", "JourneyEngine", "JourneyAPI", "Observability", "Projections", "OutboundWebhooks",
            "Reports", "Audit", "Workers", "RateBudget",
        ]),
        .executableTarget(name: "journeys", dependencies: ["JourneyApp"]),

        // Test support and tests
        .target(name: "JourneyTesting", dependencies: ["Postgres", "EmbeddedPostgres", "Migrations", "EventStore", "Cryptography"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "JourneyTesting"]),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "Migrations", "JourneyTesting"]),
        .testTarget(name: "CryptographyTests", dependencies: ["Cryptography"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "JourneyDomainTests", dependencies: ["JourneyDomain"]),
        .testTarget(name: "CLITests", dependencies: ["CLI"]),
        .testTarget(name: "UnicoEmulatorTests", dependencies: ["UnicoEmulator", "Cryptography"]),
        .testTarget(name: "RateBudgetTests", dependencies: ["RateBudget", "HumanTokenAPI", "Postgres", "JourneyTesting"]),
        .testTarget(name: "HumanTokenAPITests", dependencies: ["HumanTokenAPI", "UnicoEmulator", "Cryptography"]),
        .testTarget(name: "SDKLiteSimulatorTests", dependencies: ["SDKLiteSimulator", "UnicoEmulator", "HumanTokenAPI", "Cryptography"]),
        .testTarget(name: "ObservabilityTests", dependencies: ["Observability"]),
        .testTarget(name: "ProjectionsTests", dependencies: [
            "Projections", "JourneyTesting", "EventStore", "JourneyDomain", "JourneyStore", "JourneyEngine",
        ]),
        .testTarget(name: "OutboundWebhooksTests", dependencies: [
            "OutboundWebhooks", "JourneyTesting", "Cryptography", "HTTPServer", "EventStore", "JourneyDomain", "JourneyStore",
            "JourneyEngine", "AccessControl", "Privacy", "JourneyApp", "CLI", "Migrations",
        ]),
        .testTarget(name: "JourneyAPITests", dependencies: [
            "JourneyAPI", "JourneyEngine", "JourneyTesting", "HTTPServer", "UnicoEmulator", "SDKLiteSimulator", "HumanTokenAPI",
            "AccessControl", "Privacy", "JourneyDomain", "EventStore", "Cryptography", "Projections",
        ]),
        .testTarget(name: "JourneyClientTests", dependencies: [
            "JourneyClient", "JourneyAPI", "JourneyTesting", "UnicoEmulator", "SDKLiteSimulator", "HumanTokenAPI",
            "AccessControl", "Privacy", "HTTPServer",
        ]),
        .testTarget(name: "JourneyStoreTests", dependencies: ["JourneyStore", "JourneyTesting", "EventStore", "JourneyDomain"]),
        .testTarget(name: "JourneyEngineTests", dependencies: [
            "JourneyEngine", "JourneyStore", "JourneyTesting", "EventStore", "JourneyDomain", "Postgres",
        ]),
        .testTarget(name: "PrivacyTests", dependencies: ["Privacy", "JourneyTesting", "Cryptography", "JourneyDomain"]),
        .testTarget(name: "AccessControlTests", dependencies: ["AccessControl", "JourneyTesting", "Cryptography"]),
        .testTarget(name: "ReportsTests", dependencies: [
            "Reports", "JourneyTesting", "JourneyDomain", "Projections", "EventStore", "JourneyStore", "Migrations", "Postgres",
            "JourneyApp", "JourneyAPI", "JourneyEngine", "HTTPServer", "AccessControl", "CLI",
        ]),
        .testTarget(name: "AuditTests", dependencies: [
            "Audit", "JourneyTesting", "EventStore", "JourneyDomain", "Cryptography", "JourneyStore", "JourneyApp", "CLI",
            "JourneyAPI", "JourneyEngine", "HTTPServer", "Postgres", "Projections",
        ]),
        .testTarget(name: "WorkersTests", dependencies: [
            "Workers", "JourneyTesting", "JourneyAPI", "UnicoEmulator", "SDKLiteSimulator", "HumanTokenAPI",
            "AccessControl", "Privacy", "JourneyDomain", "EventStore", "Projections", "OutboundWebhooks", "HTTPServer",
            "JourneyStore", "Cryptography", "JourneyApp", "CLI",
        ]),
        .testTarget(name: "JourneyAppTests", dependencies: ["JourneyApp", "JourneyTesting", "CLI", "HumanTokenAPI"]),
    ]
)
