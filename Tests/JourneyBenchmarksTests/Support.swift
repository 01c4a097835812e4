import JourneyBenchmarks
import JourneyTesting

/// Runs `journeys-bench` in-process against a test database; returns exit code, output and errors.
func journeysBench(_ arguments: [String], database: TestDatabase) async -> (code: Int32, output: String, error: String) {
    await JourneysBenchCommand.run(
        arguments,
        variables: [
            "DATABASE_URL": database.appURL, "DATABASE_ADMIN_URL": database.ownerURL,
            "DATABASE_PROJECTOR_URL": database.projectorURL,
        ])
}
