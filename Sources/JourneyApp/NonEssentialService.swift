import Lifecycle
import Observability

/// A service whose failure is logged once and leaves the rest of its group running (the
/// projection or the outbound webhooks of a process without owner rights). Its end, whether
/// clean or not, does not shut the group down (`successTerminationBehavior: .ignore`).
struct NonEssentialService: Service {
    let service: any Service
    let logger: Logger
    /// Constant text, e.g. `projection stopped`.
    let message: String
    let metadata: [String: String]

    func run() async throws {
        do {
            try await service.run()
        } catch  where !Task.isCancelled {
            logger.warning(message, metadata: metadata.merging(["error": String(describing: type(of: error))]) { $1 })
        }
    }
}
