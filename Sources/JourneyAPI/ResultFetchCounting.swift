import HumanTokenAPI
import JourneyDomain
import JourneyEngine
import Observability

extension Journeys {
    /// Fetches the result for a route (`trigger` is `callback` or `webhook`): counts the outcome in
    /// `result_fetches_total{trigger,outcome}` and logs a failure instead of throwing it (its type,
    /// and code and description for a Unico error); the journey then stays `awaitingResult` and its
    /// `nextDue` asks a worker to fetch again.
    func fetchCounting(_ id: JourneyID, trigger: String, metrics: MetricsRegistry, logger: Logger) async {
        let label: String
        do {
            switch try await fetchResult(id) {
            case .nothingToFetch: label = "nothing_to_fetch"
            case .pending: label = "pending"
            case .recorded: label = "recorded"
            case .alreadyRecorded: label = "already_recorded"
            }
        } catch {
            label = "failed"
            var metadata = ["trigger": trigger, "journey_id": id.rawValue, "error": String(describing: type(of: error))]
            if let error = error as? HumanTokenAPIError {
                // Its description never holds credentials or personal data (see HumanTokenAPIError).
                metadata["code"] = error.code.rawValue
                metadata["detail"] = error.description
            }
            logger.warning("Get Process failed", metadata: metadata)
        }
        metrics.increment(
            "result_fetches_total", help: "Get Process calls after callbacks and webhooks, by outcome.",
            labels: ["trigger": trigger, "outcome": label])
    }
}
