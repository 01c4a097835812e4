import CLI
import Foundation
import JourneyCommands
import JourneyTesting

/// The service over the fixture's database, its clock at ``Fixture/now``, with keys, called in-process.
struct ServiceHarness: Sendable {
    typealias Answer = TestResponse

    let stack: TestStack
    /// The loopback port when the service listens (for Chromium); 0 otherwise.
    var port: Int { stack.port ?? 0 }
    /// Holds `reports:read`.
    var reporter: String { stack.reporter }
    /// Holds `journeys:read` only.
    var reader: String { stack.reader }

    /// Sends a request in-process (nothing follows redirects).
    func send(
        _ path: String, method: String = "GET", bearer: String? = nil, headers: [String: String] = [:],
        form: String? = nil
    ) async throws -> Answer {
        try await stack.send(method, path, bearer: bearer, headers: headers, form: form)
    }
}

/// Runs `body` with the fixture's history and the service serving it; with `listening`, the
/// service also listens on loopback (for a browser).
func withService(listening: Bool = false, _ body: (ServiceHarness, Fixture) async throws -> Void) async throws {
    try await withFixture { db, fixture in
        var options = TestStack.Options(time: .manual, listen: listening)
        options.clockStart = Fixture.now
        try await TestStack.with(options, database: db) { stack in
            try await body(ServiceHarness(stack: stack), fixture)
        }
    }
}

/// Runs `journeys` in-process against `database`; returns exit code, output and errors.
func journeys(_ arguments: [String], database: TestDatabase) async -> (code: Int32, output: String, error: String) {
    await JourneysCommand.run(
        arguments,
        variables: [
            "DATABASE_URL": database.appURL, "DATABASE_ADMIN_URL": database.ownerURL,
            "DATABASE_PROJECTOR_URL": database.projectorURL,
        ])
}
