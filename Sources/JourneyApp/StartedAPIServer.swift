import JourneyAPI
import Lifecycle

/// An ``APIServer`` already listening (so `serve` could print its port): waits for the group's
/// shutdown, then stops accepting and drains the requests in flight.
struct StartedAPIServer: Service {
    let server: APIServer

    func run() async throws {
        await gracefulShutdown()
        await server.shutdown()
    }
}
