import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delivers webhook notifications at least once, with retries and the fault plan's mischief.
///
/// Handlers only `enqueue`; `run()` consumes the queue in the emulator's background service, so no
/// HTTP handler ever waits on a delivery. Retries follow the configured exponential backoff.
final class EmulatorWebhookSender: Sendable {
    private let configuration: UnicoEmulator.WebhookConfiguration?
    private let faults: FaultPlan
    private let stream: AsyncStream<WebhookNotification>
    private let continuation: AsyncStream<WebhookNotification>.Continuation
    private let log = Mutex<[EmulatorWebhookRecord]>([])
    /// The OAuth2 token in the `oauth2` mode.
    let tokens: WebhookTokenCache?

    init(configuration: UnicoEmulator.WebhookConfiguration?, faults: FaultPlan, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.faults = faults
        if let configuration, case .oauth2(let tokenURL, let clientID, let clientSecret) = configuration.authentication,
            let url = configuration.resolvedTokenURL(tokenURL)
        {
            tokens = WebhookTokenCache(tokenURL: url, clientID: clientID, clientSecret: clientSecret, now: now)
        } else {
            tokens = nil
        }
        (stream, continuation) = AsyncStream.makeStream(of: WebhookNotification.self)
    }

    /// Queues `notification`; does nothing when no webhook is configured.
    func enqueue(_ notification: WebhookNotification) {
        guard configuration != nil else { return }
        continuation.yield(notification)
    }

    /// Every delivery so far, in the order notifications were taken from the queue.
    var deliveries: [EmulatorWebhookRecord] {
        log.withLock { $0 }
    }

    /// Delivers until cancelled; an attempt already sent finishes first (at most `requestTimeout`).
    func run() async {
        guard let configuration else { return }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await notification in stream {
                let fault = faults.webhookFault()
                let copies = fault.drop ? 0 : (fault.duplicate ? 2 : 1)
                let first = record(notification, isDuplicate: false, outcome: fault.drop ? .dropped : .pending)
                for copy in 0..<copies {
                    let index = copy == 0 ? first : record(notification, isDuplicate: true, outcome: .pending)
                    if running >= configuration.maxConcurrentDeliveries {
                        await group.next()
                        running -= 1
                    }
                    let delay = fault.delayMilliseconds + copy * 20
                    group.addTask { [self] in
                        await deliver(notification, index: index, delayMilliseconds: delay, configuration, session)
                    }
                    running += 1
                }
            }
            group.cancelAll()
        }
    }

    private func deliver(
        _ notification: WebhookNotification, index: Int, delayMilliseconds: Int,
        _ configuration: UnicoEmulator.WebhookConfiguration, _ session: URLSession
    ) async {
        if delayMilliseconds > 0 {
            guard (try? await Task.sleep(for: .milliseconds(delayMilliseconds))) != nil else { return }
        }
        var request = Self.makeRequest(notification, configuration)
        for attempt in 1...configuration.maxAttempts {
            guard !Task.isCancelled else { return }
            var status: Int?
            if let tokens {
                let timeout = configuration.requestTimeout / .seconds(1)
                if let authorization = await tokens.authorization(session, timeout: timeout) {
                    request.setValue(authorization, forHTTPHeaderField: "Authorization")
                    status = await Self.send(request, session)
                    if status == 401 { tokens.invalidate() }
                }
            } else {
                status = await Self.send(request, session)
            }
            let delivered = status.map { (200..<300).contains($0) } ?? false
            log.withLock { log in
                log[index].attempts.append(status)
                if delivered { log[index].outcome = .delivered }
            }
            if delivered { return }
            guard attempt < configuration.maxAttempts else { break }
            guard (try? await Task.sleep(for: configuration.backoff(afterAttempt: attempt))) != nil else { return }
        }
        log.withLock { $0[index].outcome = .gaveUp }
    }

    /// One attempt; nil on a transport error or timeout.
    ///
    /// Uses a completion handler rather than `data(for:)`: cancelling a task suspended in
    /// FoundationNetworking's async API can deadlock against the session's completion on Linux,
    /// so an attempt always runs to its response or its `requestTimeout`.
    private static func send(_ request: URLRequest, _ session: URLSession) async -> Int? {
        await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, error in
                continuation.resume(returning: error == nil ? (response as? HTTPURLResponse)?.statusCode : nil)
            }.resume()
        }
    }

    private func record(_ notification: WebhookNotification, isDuplicate: Bool, outcome: EmulatorWebhookRecord.Outcome) -> Int {
        log.withLock { log in
            log.append(
                EmulatorWebhookRecord(notification: notification, isDuplicate: isDuplicate, attempts: [], outcome: outcome))
            return log.count - 1
        }
    }

    private static func makeRequest(
        _ notification: WebhookNotification, _ configuration: UnicoEmulator.WebhookConfiguration
    ) -> URLRequest {
        var request = URLRequest(url: configuration.url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let header = configuration.authentication.header {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        request.timeoutInterval = configuration.requestTimeout / .seconds(1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        request.httpBody = try? encoder.encode(notification)
        return request
    }
}
