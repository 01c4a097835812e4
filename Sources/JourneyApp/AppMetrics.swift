import HumanTokenAPI
import JourneyAPI
import Observability
import OutboundWebhooks
import Postgres
import Workers

/// The `/metrics` gauges over tables the API does not own: the outbound webhook backlog and the
/// work items that keep failing. `serve` and `LocalStack` hand them to `APIServer`.
public enum AppMetrics {
    /// Readers for `APIServer.Configuration.metricsGauges`, over the application role, and the
    /// access-token failures of `unico`'s clients.
    public static func gaugeReaders(database: PostgresClient, unico: [HumanTokenAPIClient] = []) -> [MetricsGaugeReader] {
        [
            { metrics, _ in
                var totals: [[String: String]: Int] = [:]
                for client in unico {
                    for (code, count) in client.authenticationFailures {
                        totals[["environment": client.configuration.environment.rawValue, "code": code], default: 0] += count
                    }
                }
                for (labels, count) in totals {
                    metrics.setCounter(
                        "unico_authentication_failures_total",
                        help:
                            "Unico access-token fetches that failed, by environment and error code (no journey is abandoned for them).",
                        labels: labels, to: Double(count))
                }
            },
            { metrics, now in
                let backlog = try await WebhookBacklog.read(client: database)
                metrics.set(
                    "journeys_webhook_backlog", help: "Outbound webhook deliveries neither made nor given up.",
                    to: Double(backlog.pending))
                metrics.set(
                    "journeys_webhook_failing", help: "Pending outbound webhook deliveries that failed at least once.",
                    to: Double(backlog.failing))
                metrics.set(
                    "journeys_webhook_oldest_pending_seconds",
                    help: "Age in seconds of the oldest pending outbound webhook delivery; 0 when none.",
                    to: backlog.oldestAge(at: now))
                metrics.setCounter(
                    "journeys_webhook_endpoints_auto_disabled_total",
                    help: "Outbound webhook endpoints disabled automatically for failing longer than "
                        + "JOURNEYS_WEBHOOK_AUTO_DISABLE_AFTER.",
                    labels: [:], to: Double(backlog.autoDisabled))
            },
            { metrics, _ in
                let failing = try await WorkQueue(database: database).failingCount()
                metrics.set(
                    "journeys_work_failing",
                    help: "Open work items whose last try failed with an error (database or unexpected failure).",
                    to: Double(failing))
            },
        ]
    }
}
