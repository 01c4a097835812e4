import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HumanTokenAPI
import Testing
import UnicoEmulator

/// The ASSUMED `GET /processes?clientReference=X` of the emulator and `findProcesses` of the client.
@Suite(.serialized) struct LookupTests {
    @Test func findsTheProcessesOfAReferenceWithTheirTokensAndNothingElse() async throws {
        try await withWorkers { h in
            let unico = try #require(h.dependencies.unico[.uat])
            func create(_ reference: String?) async throws -> CreatedProcess {
                try await unico.createProcess(
                    CreateProcessRequest(
                        flow: "humantoken", purpose: .creditProcess, person: ProcessPerson(duiValue: "12345678909"),
                        clientReference: reference))
            }
            let wanted = try await create("journey-1+a/2")
            _ = try await create("journey-1+a/3")
            _ = try await create(nil)
            let found = try await unico.findProcesses(clientReference: "journey-1+a/2")
            #expect(found.map(\.snapshot.id) == [wanted.id])
            #expect(found.first?.created?.webAppToken.isEmpty == false)
            #expect(found.first?.created?.link == wanted.link)
            #expect(found.first?.snapshot.createdAt != nil)
            #expect(String(describing: found).contains(wanted.webAppToken) == false)
            #expect(try await unico.findProcesses(clientReference: "nobody").isEmpty)
            let error = try await #require(throws: HumanTokenAPIError.self) { try await unico.findProcesses(clientReference: "") }
            #expect(error.code == .invalidArgument)
            #expect(error.field == "clientReference")
        }
    }

    @Test func theLookupRequiresAnAccessToken() async throws {
        try await withWorkers { h in
            let (_, response) = try await URLSession.shared.data(from: h.emulatorURL.appendingPathComponent("processes"))
            #expect((response as? HTTPURLResponse)?.statusCode == 401)
        }
    }
}
