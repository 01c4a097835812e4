import Privacy

extension Wiring {
    /// The sealing keys from `variables` (`JOURNEYS_KEK`, ...); the development keys only on
    /// the embedded database when none are set.
    public static func privacy(_ variables: [String: String], database: Database) throws -> PrivacyConfiguration {
        guard variables[PrivacyConfiguration.Variable.activeKey] != nil || database.embedded == nil else {
            return .development()
        }
        guard variables[PrivacyConfiguration.Variable.activeKey] != nil else {
            throw AppError(.invalidInput, "\(PrivacyConfiguration.Variable.activeKey) is not set")
        }
        do {
            return try PrivacyConfiguration.fromEnvironment(variables)
        } catch let error as PrivacyError {
            throw AppError(.invalidInput, error.message)
        }
    }
}
