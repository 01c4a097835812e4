import AccessControl
import CLI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JourneyAPI
import JourneyCommands
import JourneyTesting

/// The service on loopback over the fixture's database, its clock at ``Fixture/now``, with keys.
struct ServiceHarness: Sendable {
    let port: Int
    /// Holds `reports:read`.
    let reporter: String
    /// Holds `journeys:read` only.
    let reader: String

    struct Answer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var code: String? { json["code"] as? String }
        var field: String? { json["field"] as? String }
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Sends a request without following redirects.
    func send(_ path: String, method: String = "GET", bearer: String? = nil, headers: [String: String] = [:],
              form: String? = nil) async throws -> Answer {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let form {
            request.httpBody = Data(form.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await NoRedirects.session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }
}

/// A URL session that reports redirects instead of following them and keeps no cookies (tests
/// send the `Cookie` header themselves).
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }()
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

/// Runs `body` with the fixture's history and the service serving it.
func withService(_ body: (ServiceHarness, Fixture) async throws -> Void) async throws {
    try await withFixture { db, fixture in
        let keys = APIKeyStore(client: db.app)
        let reporter = try await keys.create(name: "auditor", scopes: [.reportsRead]).plaintext
        let reader = try await keys.create(name: "reader", scopes: [.journeysRead]).plaintext
        var dependencies = try JourneyDependencies.development(database: db.app)
        dependencies.clock = { Fixture.now }
        var configuration = APIServer.Configuration()
        configuration.http.port = 0
        configuration.http.host = "127.0.0.1"
        configuration.accessLog = { _ in }
        let service = APIServer(configuration: configuration, database: db.app, dependencies: dependencies)
        try service.start()
        do {
            try await body(ServiceHarness(port: service.port!, reporter: reporter, reader: reader), fixture)
        } catch {
            await service.shutdown()
            throw error
        }
        await service.shutdown()
    }
}

/// Runs `journeys` in-process against `database`; returns exit code, output and errors.
func journeys(_ arguments: [String], database: TestDatabase) async -> (code: Int32, output: String, error: String) {
    await JourneysCommand.run(arguments, variables: ["DATABASE_URL": database.appURL, "DATABASE_ADMIN_URL": database.ownerURL])
}
