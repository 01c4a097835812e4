import DataSubjects
import Foundation
import JourneyEngine
import Postgres
import Retention

extension Wiring {
    /// The retention policy from `JOURNEYS_RETENTION*`; a bad value is `invalid_input` naming the variable.
    public static func retentionConfiguration(_ variables: [String: String]) throws -> Retention.Configuration {
        do {
            return try Retention.Configuration.fromEnvironment(variables)
        } catch let error as RetentionError {
            throw AppError(.invalidInput, error.message)
        }
    }

    /// The policy over `database` (the application role) and `projector` (the read models), with
    /// `engine`'s vault and clock for the erasures.
    public static func retention(
        _ configuration: Retention.Configuration, database: Database, projector: PostgresClient,
        engine: EngineDependencies
    ) throws -> Retention {
        let journeys = Journeys(database: database.app, dependencies: engine)
        do {
            return try Retention(configuration: configuration, subjects: DataSubjects(journeys: journeys), readModels: projector)
        } catch let error as RetentionError {
            throw AppError(.invalidInput, error.message)
        }
    }

    /// The scheduled policy of `work` and `serve --with-workers`; nil when `JOURNEYS_RETENTION=off`.
    public static func retentionService(
        _ variables: [String: String], database: Database, projector: PostgresClient,
        engine: EngineDependencies
    ) throws -> RetentionService? {
        let configuration = try retentionConfiguration(variables)
        guard configuration.enabled else { return nil }
        let retention = try retention(configuration, database: database, projector: projector, engine: engine)
        return RetentionService(retention: retention, clock: engine.clock, logger: AppEnvironment.current.logger("retention"))
    }
}
