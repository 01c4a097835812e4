import Foundation
import Observability
import Synchronization
import JourneyTesting
import Testing
@testable import HumanTokenAPI

/// Several processes of one service account: Unico refuses an assertion it has seen (`1.2.7`),
/// and two processes that fetch a token in the same second once signed the same claims.
@Suite("One Unico account, many processes")
struct SharedAccountTests {
    /// A fixed moment for the signer-only test.
    static let second = Date(timeIntervalSince1970: 1_800_000_000.25)

    @Test func twoProcessesFetchingInTheSameSecondBothCreateTheirProcess() async throws {
        try await withEmulator { unico in
            // Default lifetimes: drawn at random per process. Both read the emulator's (stopped)
            // clock: the same second, as two services started together see it.
            let now = try #require(unico.clock).read
            let clients = try (0..<2).map { _ in try unico.client(clock: now) }
            let created = try await Self.createConcurrently(clients)
            #expect(Set(created).count == 2)
            #expect(clients.allSatisfy { $0.authenticationFailures.isEmpty })
        }
    }

    @Test func aReplayRefusalIsAnsweredWithAFreshAssertion() async throws {
        try await withEmulator { unico in
            // The worst case: both processes draw the same lifetime, so their first assertions are equal.
            let now = try #require(unico.clock).read
            let clients = try (0..<3).map { _ in
                try HumanTokenAPIClient(configuration: unico.configuration(), clock: now, drawLifetime: { $0.upperBound })
            }
            for client in clients { _ = try await client.createProcess(Samples.minimalRequest()) }
            // The second client was refused once and signed again; the third twice.
            #expect(clients.map(\.tokens.fetchCount) == [1, 1, 1])
            #expect(clients.allSatisfy { $0.authenticationFailures.isEmpty })
            let created = try await Self.createConcurrently(clients)
            #expect(Set(created).count == 3)
        }
    }

    @Test func aRefusedServiceAccountIsCountedAndLoggedWithoutSecrets() async throws {
        try await withEmulator { unico in
            let lines = Mutex<[String]>([])
            let logger = Logger(label: "unico", sink: { line in lines.withLock { $0.append(line) } })
            var configuration = unico.configuration()
            configuration.serviceAccount = "unknown"
            let client = try HumanTokenAPIClient(configuration: configuration, logger: logger)
            for _ in 0..<2 {
                await #expect(throws: HumanTokenAPIError.self) { try await client.createProcess(Samples.minimalRequest()) }
            }
            #expect(client.authenticationFailures == ["unauthorized": 2])
            let logged = lines.withLock { $0 }
            #expect(logged.count == 2)
            for line in logged {
                #expect(line.contains(#""level":"error""#) && line.contains(#""code":"unauthorized""#))
                #expect(line.contains(#""environment":"uat""#))
                #expect(!line.contains("eyJ"), "no assertion or token in the log")
            }
        }
    }

    @Test func assertionsOfOneSignerNeverRepeatWithinASecond() throws {
        let signer = AssertionSigner(
            issuer: "sa@acme.iam.acesso.io", audience: "https://identity.acesso.io",
            key: TestKeys.account, draw: { $0.lowerBound })
        let claims = (0..<5000).map { _ in signer.claims(at: Self.second) }
        // 3,541 distinct lifetimes (60...3600) before the count-down wraps.
        #expect(Set(claims.prefix(3541)).count == 3541)
        #expect(claims.allSatisfy { $0.exp - $0.iat >= AssertionSigner.minimumLifetime && $0.exp - $0.iat <= 3600 })
    }

    /// One Create Process per client, all at once; the process ids.
    static func createConcurrently(_ clients: [HumanTokenAPIClient]) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for client in clients { group.addTask { try await client.createProcess(Samples.minimalRequest()).id } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
