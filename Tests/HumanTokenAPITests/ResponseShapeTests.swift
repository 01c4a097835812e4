import Foundation
import HTTPServer
import Testing
import UnicoEmulator
@testable import HumanTokenAPI

/// The client reads process answers flat or wrapped in `process`, on configurable paths, follows
/// no redirect and reads at most 1 MiB of an answer.
@Suite("Process answers in either shape")
struct ResponseShapeTests {
    @Test(arguments: UnicoEmulator.ResponseShape.allCases)
    func createGetAndLookupReadEitherShape(shape: UnicoEmulator.ResponseShape) async throws {
        try await withEmulator(shape: shape) { unico in
            let client = try unico.client()
            let created = try await client.createProcess(Samples.fullRequest())
            #expect(!created.id.isEmpty && !created.token.isEmpty && !created.link.isEmpty)
            #expect(!created.webAppToken.isEmpty)
            #expect(created.extras["process"] == nil)
            #expect(created.extras["flow"] == "idtoken")
            try await unico.capture(webAppToken: created.webAppToken)
            let snapshot = try await client.getProcess(created.id)
            #expect(snapshot.id == created.id)
            #expect(snapshot.state == .finished)
            #expect(snapshot.result == .ok)
            #expect(snapshot.humanToken != nil)
            #expect(snapshot.humanToken == unico.emulator.process(id: created.id)?.humanToken)
            #expect(snapshot.finishedAt != nil)
            let found = try await client.findProcesses(clientReference: "journey-42")
            #expect(found.map(\.snapshot.id) == [created.id])
            #expect(found.first?.created?.webAppToken.isEmpty == false)
        }
    }

    @Test func lookupNoneNeverSearches() async throws {
        try await withEmulator { unico in
            var configuration = unico.configuration()
            configuration.lookup = .none
            let client = try unico.client(configuration)
            let error = await apiError { try await client.findProcesses(clientReference: "journey-42") }
            #expect(error?.code == .configuration)
            #expect(error?.field == "lookup")
        }
    }

    @Test func configuredPathsAreUsed() async throws {
        try await withStubUnico { stub in
            let client = try stub.client(create: "/client/v1/process", get: "/client/v1/process/{id}")
            let created = try await client.createProcess(Samples.minimalRequest())
            #expect(created.id == "p-1")
            let snapshot = try await client.getProcess("p-1")
            #expect(snapshot.state == .created)
        }
    }

    @Test func anAnswerInNeitherShapeIsInvalidResponseNamingTheField() async throws {
        try await withStubUnico { stub in
            let create = try stub.client(create: "/neither")
            let error = await apiError { try await create.createProcess(Samples.minimalRequest()) }
            #expect(error?.code == .invalidResponse)
            #expect(error?.field == "id")
            let get = try stub.client(get: "/no-token/{id}")
            let missing = await apiError { try await get.getProcess("p-1") }
            #expect(missing?.code == .invalidResponse)
            #expect(missing?.field == "state")
            let created = try stub.client(create: "/wrapped-without-webapptoken")
            let noToken = await apiError { try await created.createProcess(Samples.minimalRequest()) }
            #expect(noToken?.field == "webAppToken")
        }
    }

    @Test func aRedirectIsNotFollowed() async throws {
        try await withStubUnico { stub in
            let client = try stub.client(get: "/moved/{id}")
            let error = await apiError { try await client.getProcess("p-1") }
            #expect(error?.code == .invalidResponse)
            #expect(error?.status == 302)
            #expect(error?.message.contains("HTTP 302") == true)
            #expect(stub.hits.all.contains("GET /client/v1/process/p-1") == false)
            let create = try stub.client(create: "/moved-create")
            let refused = await apiError { try await create.createProcess(Samples.minimalRequest()) }
            #expect(refused?.status == 307)
        }
    }

    @Test func anAnswerOverTheBodyCapIsInvalidResponse() async throws {
        try await withStubUnico { stub in
            let error = await apiError { try await stub.client(get: "/huge/{id}").getProcess("p-1") }
            #expect(error?.code == .invalidResponse)
            #expect(error?.status == 200)
            #expect(error?.message.contains("over 1048576 bytes") == true)
            let client = try stub.client(get: "/client/v1/process/{id}")
            #expect(try await client.getProcess("p-1").id == "p-1")
        }
    }

    @Test func pathSettingsAreValidated() throws {
        let variables = [
            "UNICO_UAT_SERVICE_ACCOUNT": "a", "UNICO_UAT_TENANT": "t", "UNICO_UAT_PRIVATE_KEY": TestKeys.accountPKCS8,
        ]
        let missingID = variables.merging(["UNICO_UAT_GET_PROCESS_PATH": "/processes"]) { $1 }
        #expect(throws: HumanTokenAPIError.self) { try HumanTokenAPIConfiguration.fromEnvironment(missingID, environment: .uat) }
        do {
            _ = try HumanTokenAPIConfiguration.fromEnvironment(
                variables.merging(["UNICO_UAT_LOOKUP": "maybe"]) { $1 }, environment: .uat)
            Issue.record("an unknown lookup was accepted")
        } catch let error as HumanTokenAPIError {
            #expect(error.field == "UNICO_UAT_LOOKUP")
        }
        let configured = try HumanTokenAPIConfiguration.fromEnvironment(
            variables.merging([
                "UNICO_UAT_CREATE_PROCESS_PATH": "/client/v1/process", "UNICO_UAT_GET_PROCESS_PATH": "/client/v1/process/{id}",
                "UNICO_UAT_LOOKUP": "none",
            ]) { $1 }, environment: .uat)
        #expect(configured.createProcessPath == "/client/v1/process")
        #expect(configured.getProcessPath == "/client/v1/process/{id}")
        #expect(configured.findProcessesPath == "/processes")
        #expect(configured.lookup == .none)
    }
}

/// A loopback stand-in for Unico answering in shapes the emulator never uses.
struct StubUnico: Sendable {
    let server: HTTPServer
    let hits: Recorder

    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port ?? 0)")! }

    func client(create: String = "/processes", get: String = "/processes/{id}") throws -> HumanTokenAPIClient {
        var configuration = HumanTokenAPIConfiguration(
            environment: .uat, serviceAccount: "journeys", tenant: "acme", privateKey: .pem(TestKeys.accountPKCS8),
            tokenHost: baseURL, apiHost: baseURL, requestTimeout: 5)
        configuration.createProcessPath = create
        configuration.getProcessPath = get
        return try HumanTokenAPIClient(configuration: configuration)
    }

    static func make() -> StubUnico {
        let hits = Recorder()
        var router = Router()
        @Sendable func json(_ text: String, status: Int = 200) -> HTTPResponse {
            HTTPResponse(status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
        let flat = #"{"id":"p-1","token":"t-1","link":"https://l/p-1","webAppToken":"w-1","state":"PROCESS_STATE_CREATED"}"#
        router.post("/oauth2/token") { _ in json(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#) }
        router.post("/client/v1/process") { _ in
            hits.record("POST /client/v1/process"); return json(flat)
        }
        router.get("/client/v1/process/{id}") { request in
            hits.record("GET /client/v1/process/\(request.pathParameters["id"] ?? "")")
            return json(#"{"process":{"id":"p-1","state":"PROCESS_STATE_CREATED"}}"#)
        }
        router.post("/neither") { _ in json(#"{"result":{"id":"p-1","token":"t","link":"l","webAppToken":"w"}}"#) }
        router.post("/wrapped-without-webapptoken") { _ in json(#"{"process":{"id":"p-1","token":"t","link":"l"}}"#) }
        router.get("/no-token/{id}") { _ in json(#"{"process":{"id":"p-1"}}"#) }
        router.get("/moved/{id}") { request in
            var response = json("{}", status: 302)
            response.headers["Location"] = "/client/v1/process/\(request.pathParameters["id"] ?? "")"
            return response
        }
        router.get("/huge/{id}") { _ in
            json(#"{"id":"p-1","state":"PROCESS_STATE_CREATED","padding":""# + String(repeating: "x", count: 1 << 20) + #""}"#)
        }
        router.post("/moved-create") { _ in
            var response = json("{}", status: 307)
            response.headers["Location"] = "/client/v1/process"
            return response
        }
        return StubUnico(
            server: HTTPServer(configuration: .init(port: 0), router: router, accessLog: AccessLogEntry.discard),
            hits: hits)
    }
}

/// Runs `body` with a started ``StubUnico`` and always stops it.
func withStubUnico(_ body: (StubUnico) async throws -> Void) async throws {
    let stub = StubUnico.make()
    try stub.server.start()
    do {
        try await body(stub)
    } catch {
        await stub.server.shutdown()
        throw error
    }
    await stub.server.shutdown()
}
