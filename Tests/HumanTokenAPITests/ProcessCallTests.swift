import Foundation
import Testing
@testable import HumanTokenAPI

/// Every documented call against the emulator over loopback.
@Suite("Process calls against the emulator")
struct ProcessCallTests {
    @Test func createThenGetAFullRequest() async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let before = Date()
            let created = try await client.createProcess(Samples.fullRequest())
            #expect(!created.id.isEmpty)
            #expect(!created.token.isEmpty)
            #expect(!created.link.isEmpty)
            #expect(!created.webAppToken.isEmpty)
            #expect(created.token != created.webAppToken)
            for text in [created.description, String(reflecting: created)] {
                #expect(!text.contains(created.webAppToken))
                #expect(!text.contains(created.token))
            }

            let snapshot = try await client.getProcess(created.id)
            #expect(snapshot.id == created.id)
            #expect(snapshot.state == .created)
            #expect(snapshot.result == .unspecified)
            #expect(snapshot.humanToken == nil)
            #expect(snapshot.finishedAt == nil)
            let createdAt = try #require(snapshot.createdAt)
            let expiresAt = try #require(snapshot.expiresAt)
            #expect(abs(createdAt.timeIntervalSince(before)) < 5)
            #expect(abs(expiresAt.timeIntervalSince(createdAt) - 86_400) < 1)
            #expect(snapshot.extras["flow"] == "idtoken")
            #expect(unico.emulator.process(id: created.id)?.clientReference == "journey-42")
        }
    }

    @Test func aMinimalRequestGetsTheDefaultLifetime() async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let created = try await client.createProcess(Samples.minimalRequest())
            let snapshot = try await client.getProcess(created.id, priority: .live)
            let lifetime = try #require(snapshot.expiresAt).timeIntervalSince(try #require(snapshot.createdAt))
            #expect(abs(lifetime - 7 * 86_400) < 1)
        }
    }

    @Test(arguments: [
        ("approved", UnicoProcessResult.ok), ("rejected", .invalidIdentity), ("expired", .expired), ("error", .error),
    ])
    func finishedProcessCarriesResultAndHumanToken(outcome: String, result: UnicoProcessResult) async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let created = try await client.createProcess(Samples.fullRequest())
            try await unico.capture(webAppToken: created.webAppToken, outcome: outcome)
            let snapshot = try await client.getProcess(created.id)
            #expect(snapshot.state == .finished)
            #expect(snapshot.result == result)
            #expect(snapshot.finishedAt != nil)
            if result == .ok {
                let humanToken = try #require(snapshot.humanToken)
                #expect(humanToken == unico.emulator.process(id: created.id)?.humanToken)
                #expect(!snapshot.description.contains(humanToken))
            } else {
                #expect(snapshot.humanToken == nil)
            }
        }
    }

    @Test func unknownProcessIsNotFound() async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let error = await apiError { try await client.getProcess("00000000-0000-4000-8000-000000000000") }
            #expect(error?.code == .notFound)
            #expect(error?.status == 404)
            expectNoSecrets(error, [try await client.tokens.token().value])
            #expect(await apiError { try await client.getProcess("") }?.field == "id")
            #expect(await apiError { try await client.getProcess("../oauth2/token?x=1") }?.code == .notFound)
        }
    }

    @Test func aProcessCreatedInUATIsUnknownInPROD() async throws {
        try await withEmulator { unico in
            let uat = try unico.client(unico.configuration(.uat))
            let prod = try unico.client(unico.configuration(.prod))
            let created = try await uat.createProcess(Samples.minimalRequest())
            #expect(await apiError { try await prod.getProcess(created.id) }?.code == .notFound)
            let own = try await prod.createProcess(Samples.minimalRequest())
            #expect(try await prod.getProcess(own.id).state == .created)
        }
    }

    @Test func configuredFromEnvironmentVariablesLikeACompanyWould() async throws {
        try await withEmulator { unico in
            let directory = try TestKeys.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let keyFile = directory.appendingPathComponent("uat.pem")
            try TestKeys.accountPKCS1.write(to: keyFile, atomically: true, encoding: .utf8)
            let configuration = try HumanTokenAPIConfiguration.fromEnvironment(
                [
                    "UNICO_UAT_TOKEN_HOST": unico.baseURL.absoluteString + "/",
                    "UNICO_UAT_API_HOST": unico.baseURL.absoluteString,
                    "UNICO_UAT_SERVICE_ACCOUNT": Emulated.uatAccount, "UNICO_UAT_TENANT": Emulated.tenant,
                    "UNICO_UAT_PRIVATE_KEY_FILE": keyFile.path,
                ], environment: .uat)
            let client = try HumanTokenAPIClient(configuration: configuration)
            let created = try await client.createProcess(Samples.minimalRequest())
            #expect(try await client.getProcess(created.id).state == .created)
        }
    }
}
