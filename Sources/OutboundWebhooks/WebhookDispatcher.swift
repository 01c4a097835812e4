import Foundation
import OutboundHTTP
import Postgres
import Timestamps

/// Sends due webhook deliveries, signed, with retries; any number may run side by side.
///
/// Each round claims due deliveries with `FOR UPDATE SKIP LOCKED` and a lease (owner, until),
/// so concurrent dispatchers never hold the same delivery; a dispatcher that dies mid-call
/// leaves a lease that expires and the delivery is retried. A 2xx marks it delivered; `410 Gone`
/// disables the endpoint and stops its pending deliveries; anything else schedules a retry per
/// ``WebhookRetrySchedule``, no earlier than a `Retry-After`. An endpoint that has failed every
/// attempt for longer than ``Configuration/autoDisableAfter`` is disabled (its reason says since
/// when; `journeys_webhook_endpoints_auto_disabled_total` counts it). A revoked key's endpoints
/// are never claimed. Before each attempt the host is
/// resolved once and every address checked against ``Configuration/destinations``: a refused
/// destination is a failed attempt (no request is made) whose `last_error` says why, retried like
/// any other. The request goes to the checked addresses only (`OutboundHTTPClient`, which never
/// resolves again), so a name that answers differently a moment later (DNS rebinding) cannot
/// redirect it. At most ``Configuration/maxResponseBytes`` of an answer's body are read (and
/// dropped); a longer one is cut there, its connection closed, and its status counts as sent
/// (a connection whose answer was read whole is kept for the host's next delivery). Redirects are not followed (a 3xx is a failed attempt). Neither the secret nor the payload
/// is ever logged (this type logs nothing; errors carry status codes and transport errors only).
public final class WebhookDispatcher: Sendable {
    public let configuration: Configuration
    private let client: PostgresClient
    private let sealer: WebhookSecretSealer
    private let http: OutboundHTTPClient
    private let owner: String
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - sealer: opens the endpoints' sealed secrets.
    ///   - now: the clock; defaults to the system clock.
    ///   - random: uniform in [0, 1), for jitter; defaults to the system generator.
    ///   - owner: the lease owner name; defaults to a random id per dispatcher.
    public init(
        client: PostgresClient, sealer: WebhookSecretSealer, configuration: Configuration = Configuration(),
        owner: String = "dispatcher-" + UUID().uuidString.lowercased(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.client = client
        self.sealer = sealer
        self.configuration = configuration
        self.owner = owner
        self.now = now
        self.random = random
        http = OutboundHTTPClient(
            configuration: .init(
                timeout: configuration.requestTimeout, connectTimeout: configuration.connectTimeout,
                maxResponseBytes: configuration.maxResponseBytes, trustedCertificates: configuration.trustedCertificates))
    }

    /// Dispatches until cancelled; database errors are retried after the poll interval.
    public func run() async throws {
        while !Task.isCancelled {
            let sent = (try? await dispatchDue(limit: configuration.batchSize)) ?? 0
            if sent == 0 {
                do { try await Task.sleep(for: configuration.pollInterval) } catch { return }
            }
        }
    }

    /// Claims up to `limit` due deliveries, attempts each once, and records the outcomes;
    /// returns how many were attempted.
    @discardableResult
    public func dispatchDue(limit: Int) async throws -> Int {
        let deliveries = try await claim(limit: limit)
        await withTaskGroup(of: Void.self) { group in
            for delivery in deliveries {
                group.addTask {
                    let outcome = await self.attempt(delivery)
                    try? await self.record(outcome, for: delivery)
                }
            }
        }
        return deliveries.count
    }

    func claim(limit: Int) async throws -> [WebhookDelivery] {
        let now = now()
        let leaseUntil = now.addingTimeInterval(configuration.leaseDuration)
        let owner = owner
        return try await client.transaction { connection in
            let rows = try connection.query(
                OutboundWebhooksStatements.claim(now: now, leaseUntil: leaseUntil, owner: owner, limit: limit))
            return try rows.map { row in
                WebhookDelivery(
                    id: try row.decode("id"), endpointID: try row.decode("endpoint_id"),
                    messageID: try row.decode("message_id"), eventType: try row.decode("event_type"),
                    payload: try row.decode("payload"), attempt: try row.decode("attempt_count"),
                    createdAt: try row.decode("created_at"), url: try row.decode("url"),
                    sealedSecret: try row.decode("secret_sealed"), secretKeyID: try row.decode("secret_key_id"),
                    tenant: try row.decode("tenant"))
            }
        }
    }

    func attempt(_ delivery: WebhookDelivery) async -> WebhookAttemptOutcome {
        guard let url = URL(string: delivery.url), let host = url.host else {
            return .failed(status: nil, error: "invalid endpoint URL", retryAfter: nil)
        }
        let addresses: [IPAddress]
        do {
            addresses = try await configuration.destinations.forTenant(delivery.tenant)
                .check(host: host, resolver: configuration.resolver)
        } catch {
            let prefix = error.code == .destinationRefused ? "refused: " : ""
            return .failed(status: nil, error: prefix + error.message, retryAfter: nil)
        }
        let secret: WebhookSecret
        do {
            secret = try sealer.open(delivery.sealedSecret, keyID: delivery.secretKeyID, endpointID: delivery.endpointID)
        } catch {
            return .failed(status: nil, error: "endpoint secret unreadable under key id \(delivery.secretKeyID)", retryAfter: nil)
        }
        let body = delivery.body
        let timestamp = Int64(now().timeIntervalSince1970.rounded(.down))
        var headers = [OutboundHTTPHeader("Content-Type", "application/json"), OutboundHTTPHeader("User-Agent", Self.userAgent)]
        for (name, value) in StandardWebhookSigner(secret: secret).headers(
            id: delivery.messageID, timestamp: timestamp, body: body)
        {
            headers.append(OutboundHTTPHeader(name, value))
        }
        let request = OutboundHTTPRequest(method: "POST", url: url, headers: headers, body: body)
        // In a task of its own, which the dispatcher's cancellation does not reach: an attempt
        // under way runs to its answer (at most `requestTimeout`) and is recorded, so stopping
        // `work` neither cuts a request the receiver may have acted on nor leaves it to the lease.
        let result = await Task { [http] in
            do throws(OutboundHTTPError) {
                return Result<OutboundHTTPResponse, OutboundHTTPError>.success(try await http.send(request, to: addresses))
            } catch {
                return .failure(error)
            }
        }.value
        switch result {
        case .success(let answer):
            switch answer.status {
            case 200..<300: return .delivered(status: answer.status)
            case 410: return .gone
            default:
                let retryAfter = answer.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now()) }
                return .failed(
                    status: answer.status, error: "HTTP \(answer.status)",
                    retryAfter: retryAfter.map { min($0, configuration.maxRetryAfter) })
            }
        case .failure(let error):
            return .failed(status: nil, error: "transport error: \(error.message)", retryAfter: nil)
        }
    }

    /// What receivers see as `User-Agent` (some firewalls refuse requests without one).
    public static let userAgent = "HumanTokenJourneys-Webhooks/1"

    /// `259200` as "3 days", `7200` as "2 hours", else seconds.
    static func describe(_ interval: TimeInterval) -> String {
        let seconds = Int(interval)
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if seconds % 86400 == 0 { return plural(seconds / 86400, "day") }
        if seconds % 3600 == 0 { return plural(seconds / 3600, "hour") }
        return plural(seconds, "second")
    }

    func record(_ outcome: WebhookAttemptOutcome, for delivery: WebhookDelivery) async throws {
        let now = now()
        let owner = owner
        let schedule = configuration.retrySchedule
        let random = random()
        let autoDisableAfter = configuration.autoDisableAfter
        try await client.transaction { connection in
            switch outcome {
            case .delivered(let status):
                try connection.query(OutboundWebhooksStatements.delivered(delivery.id, owner: owner, status: status, at: now))
                try connection.query(OutboundWebhooksStatements.endpointSucceeded(delivery.endpointID))
            case .gone:
                let reason = "410 Gone"
                try connection.query(OutboundWebhooksStatements.disableEndpoint(delivery.endpointID, at: now, reason: reason))
                try connection.query(
                    OutboundWebhooksStatements.giveUpGone(
                        endpointID: delivery.endpointID, delivery: delivery.id, owner: owner, at: now))
            case .failed(let status, let error, let retryAfter):
                if schedule.shouldGiveUp(attempts: delivery.attempt, createdAt: delivery.createdAt, now: now) {
                    let reason = "gave up after \(delivery.attempt) attempts: \(error)"
                    try connection.query(
                        OutboundWebhooksStatements.giveUp(delivery.id, owner: owner, status: status, reason: reason, at: now))
                } else {
                    let next = now.addingTimeInterval(
                        schedule.delay(afterAttempt: delivery.attempt, random: random, retryAfter: retryAfter))
                    try connection.query(
                        OutboundWebhooksStatements.retry(delivery.id, owner: owner, at: next, status: status, error: error))
                }
                try connection.query(OutboundWebhooksStatements.endpointFailed(delivery.endpointID, at: now))
                if let limit = autoDisableAfter {
                    try connection.query(
                        OutboundWebhooksStatements.autoDisable(
                            delivery.endpointID, at: now, cutoff: now.addingTimeInterval(-limit), limit: Self.describe(limit)))
                }
            }
        }
    }
}
