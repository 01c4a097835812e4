import HTTPServer
import Testing

/// Starts a server on a free port, runs `body` with the port, and always shuts it down.
func withServer<T>(
    _ router: Router,
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(port: 0),
    log: LogRecorder = LogRecorder(),
    _ body: (Int) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, router: router, accessLog: log.sink)
    try server.start()
    do {
        let port = try #require(server.port)
        let result = try await body(port)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
