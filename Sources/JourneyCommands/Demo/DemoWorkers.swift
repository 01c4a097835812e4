import JourneyAPI
import JourneyApp
import Projections
import Workers

/// The demo's workers, stepped by hand after each move of the clock: bring `journey_state` up to
/// date, then claim and perform whatever is due until nothing is.
struct DemoWorkers: Sendable {
    let projections: ProjectionRunner
    let worker: WorkerService

    /// The workers of `app` (the demo's service), with the projection on `database`'s projector.
    init(database: Database, app: JourneyApp) throws {
        projections = ProjectionRunner(client: database.projector ?? database.admin, configuration: .init(listen: false))
        worker = try app.worker(.init(batchSize: 50, concurrency: 4, workerID: "demo-worker"))
    }

    func pass() async throws {
        for _ in 0..<20 {
            _ = try await projections.catchUp()
            guard try await worker.runOnce() > 0 else { return }
        }
    }

    var statistics: String {
        let counts = worker.statistics
        return "claimed \(counts.claimed), done \(counts.done)"
    }
}
