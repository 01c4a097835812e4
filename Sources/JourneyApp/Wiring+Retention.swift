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
}
