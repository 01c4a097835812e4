import Cryptography
import Foundation
import HTTPServer
import Synchronization

/// The emulator's state and request handling, shared by the router's handlers.
///
/// Handlers validate outside the lock and take it only to read or change `EmulatorState`.
final class EmulatorCore: Sendable {
    let configuration: UnicoEmulator.Configuration
    let faults: FaultPlan
    let issuer: CaptureTokenIssuer
    let validator: AssertionValidator
    let state = Mutex(EmulatorState())
    private let origin = Mutex("http://127.0.0.1")
    /// Hands finished processes to the webhook dispatcher; never blocks.
    let announce: @Sendable (WebhookNotification) -> Void

    init(
        configuration: UnicoEmulator.Configuration,
        faults: FaultPlan,
        signingKey: Ed25519PrivateKey,
        announce: @escaping @Sendable (WebhookNotification) -> Void
    ) {
        self.configuration = configuration
        self.faults = faults
        issuer = CaptureTokenIssuer(key: signingKey)
        validator = AssertionValidator(
            accounts: configuration.serviceAccounts,
            tokenHost: { [configuration] in configuration.tokenHost(for: $0) })
        self.announce = announce
    }

    /// The injected clock plus the fault script's offset.
    func now() -> Date {
        configuration.clock.now().addingTimeInterval(configuration.faultScript.clockOffsetSeconds)
    }

    /// `http://host:port` of the running server, for process links.
    var baseURL: String {
        get { origin.withLock { $0 } }
        set { origin.withLock { $0 = newValue } }
    }

    func link(for processID: String) -> String {
        "\(baseURL)/link/\(processID)"
    }

    /// Finishes overdue processes and announces them.
    func expireDueProcesses() {
        let now = now()
        let finished = state.withLock { $0.expireDueProcesses(now: now) }
        for process in finished { announce(WebhookNotification(process)) }
    }

    /// A snapshot of one process, expiring it first if it is overdue.
    func process(id: String) -> UnicoEmulator.ProcessRecord? {
        let now = now()
        let (process, expired) = state.withLock { state -> (UnicoEmulator.ProcessRecord?, Bool) in
            let expired = state.processes[id]?.expireIfDue(now: now) ?? false
            return (state.processes[id], expired)
        }
        if expired, let process { announce(WebhookNotification(process)) }
        return process
    }

    static func randomToken(bytes: Int = 32) -> String {
        Base64URL.encode(SecureRandom.bytes(bytes))
    }
}
