import Migrations
import Postgres

/// `DATABASE_PROJECTOR_URL`: the projector role's pool, and the check that it is the right role
/// (able to write the read models, checkpoints and outbox; unable to write the event log).
public enum ProjectorCheck {
    public static let variable = "DATABASE_PROJECTOR_URL"

    /// A pool for `url`; an unusable URL is an error naming the variable.
    static func client(url: String, configuration: PostgresClient.Configuration) throws -> PostgresClient {
        do {
            return try PostgresClient(url: url, configuration: configuration)
        } catch {
            throw AppError(.invalidInput, "\(variable) is not a usable PostgreSQL URL (\(error))")
        }
    }

    static func missing() -> AppError {
        AppError(
            .invalidInput,
            "\(variable) is not set: serve and work run the projections and the outbound webhooks "
                + "as the journeys_projector role (created by the migrations); set \(variable) to a URL of that role")
    }

    /// Connects and checks the role; errors name the variable and the role (never the URL).
    static func verify(_ client: PostgresClient) async throws {
        let fitness: RoleCatalog.ProjectorFitness
        do {
            fitness = try await RoleCatalog.projectorFitness(client)
        } catch let error as PostgresError {
            throw AppError(.invalidInput, "\(variable): cannot connect as the projector (\(error.message))")
        }
        guard !fitness.canWriteLog else {
            throw AppError(
                .invalidInput,
                "\(variable) connects as \(fitness.role), which may write or alter the event log; "
                    + "use the journeys_projector role")
        }
        guard fitness.canProject else {
            throw AppError(
                .invalidInput,
                "\(variable) connects as \(fitness.role), which may not write the read models, "
                    + "checkpoints and outbox; use the journeys_projector role (grants by migration 0017)")
        }
    }
}
