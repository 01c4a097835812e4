import HumanTokenAPI
import JourneyDomain
import JourneyEngine
import Observability

/// The result fetches of the routes (`trigger` is `callback` or `webhook`), counted in
/// `result_fetches_total{trigger,outcome}`; a failure is logged (its type, and code and
/// description for a Unico error), never thrown (see `ImmediateFetch`).
struct ResultFetchCounting: Sendable {
    let metrics: MetricsRegistry
    let logger: Logger

    func count(_ fetch: ImmediateFetch, journey id: JourneyID, trigger: String) {
        let label: String
        switch fetch {
        case .skipped: return
        case .done(.nothingToFetch): label = "nothing_to_fetch"
        case .done(.pending): label = "pending"
        case .done(.recorded): label = "recorded"
        case .done(.alreadyRecorded): label = "already_recorded"
        case .failed(let error):
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
