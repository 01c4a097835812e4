import Synchronization

/// Runs services together and shuts them down in order, in the shape of swift-service-lifecycle's
/// `ServiceGroup`.
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(services: [projections, worker, listener]))
/// try await group.run()   // until SIGTERM/SIGINT, cancellation, or a service ends
/// ```
///
/// The services start in order. The group shuts down when a configured signal arrives, when the
/// task running `run()` is cancelled, when ``triggerGracefulShutdown()`` is called, or when a
/// service ends or throws (see ``ServiceGroupConfiguration/ServiceConfiguration/TerminationBehavior``).
/// A graceful shutdown goes in reverse order: each service is cancelled and awaited before the
/// one started before it, so the listener started last stops accepting first.
///
/// A service that does not stop within its `gracefulShutdownTimeout` is left running (its task
/// is cancelled but no longer awaited) and the group moves on; `run()` then throws
/// ``ServiceGroupError/Code/gracefulShutdownTimedOut`` naming it. The first error a service
/// threw (other than a `CancellationError` once cancelled) wins over that and is rethrown.
/// `run()` returns normally after a shutdown in which every service stopped cleanly.
public final class ServiceGroup: Sendable {
    public let configuration: ServiceGroupConfiguration
    private let mailbox = Mailbox<Event>()
    private let started = Mutex(false)

    enum Event: Sendable {
        case ended(Int, (any Error)?)
        case timedOut(Int)
        case shutdownRequested
    }

    public init(configuration: ServiceGroupConfiguration) {
        self.configuration = configuration
    }

    /// Shuts the group down gracefully, as a signal would.
    public func triggerGracefulShutdown() {
        mailbox.post(.shutdownRequested)
    }

    /// Runs every service until the group shuts down; callable once.
    public func run() async throws {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { throw ServiceGroupError(.alreadyRunning) }
        let mailbox = mailbox
        let signals = SignalListener(configuration.gracefulShutdownSignals) { _ in mailbox.post(.shutdownRequested) }
        defer { signals.stop() }
        // Unstructured so that a service ignoring cancellation cannot hold the group past its timeout.
        let tasks = configuration.services.enumerated().map { index, entry in
            Task {
                do {
                    try await entry.service.run()
                    mailbox.post(.ended(index, nil))
                } catch {
                    mailbox.post(.ended(index, error))
                }
            }
        }
        var run = Supervision(services: configuration.services, tasks: tasks)
        try await withTaskCancellationHandler {
            try await run.supervise(mailbox)
        } onCancel: {
            mailbox.post(.shutdownRequested)
        }
    }
}

/// The group's bookkeeping while it runs: which services still run, the first error, the late ones.
private struct Supervision {
    typealias TerminationBehavior = ServiceGroupConfiguration.ServiceConfiguration.TerminationBehavior

    let services: [ServiceGroupConfiguration.ServiceConfiguration]
    let tasks: [Task<Void, Never>]
    var running: Set<Int>
    var cancelled: Set<Int> = []
    var firstError: (any Error)?
    var late: [String] = []

    init(services: [ServiceGroupConfiguration.ServiceConfiguration], tasks: [Task<Void, Never>]) {
        self.services = services
        self.tasks = tasks
        self.running = Set(services.indices)
    }

    mutating func supervise(_ mailbox: Mailbox<ServiceGroup.Event>) async throws {
        var shutdown: TerminationBehavior?
        while shutdown == nil, !running.isEmpty {
            switch await mailbox.next() {
            case .ended(let index, let error):
                let behavior = ended(index, error)
                if behavior != .ignore { shutdown = behavior }
            case .shutdownRequested:
                shutdown = .gracefullyShutdownGroup
            case .timedOut:
                break
            }
        }
        if shutdown == .cancelGroup {
            for index in running { cancel(index) }
        }
        for index in services.indices.reversed() where running.contains(index) {
            await stop(index, mailbox)
        }
        if let firstError { throw firstError }
        if !late.isEmpty { throw ServiceGroupError(.gracefulShutdownTimedOut, services: late) }
    }

    /// Cancels the service at `index` and waits for it to end or for its timeout.
    private mutating func stop(_ index: Int, _ mailbox: Mailbox<ServiceGroup.Event>) async {
        cancel(index)
        let timeout = services[index].gracefulShutdownTimeout
        let timer = Task {
            try await Task.sleep(for: timeout)
            mailbox.post(.timedOut(index))
        }
        while running.contains(index) {
            switch await mailbox.next() {
            case .ended(let other, let error):
                _ = ended(other, error)
            case .timedOut(let other) where other == index:
                running.remove(index)
                late.append(services[index].name)
            case .timedOut, .shutdownRequested:
                break
            }
        }
        timer.cancel()
        _ = await timer.result
    }

    private mutating func cancel(_ index: Int) {
        cancelled.insert(index)
        tasks[index].cancel()
    }

    /// Records the end of a service; returns what its configuration says the group should do.
    private mutating func ended(_ index: Int, _ error: (any Error)?) -> TerminationBehavior {
        running.remove(index)
        let service = services[index]
        guard let error else { return service.successTerminationBehavior }
        let stopping = cancelled.contains(index) && error is CancellationError
        if !stopping, service.failureTerminationBehavior != .ignore, firstError == nil { firstError = error }
        return stopping ? .ignore : service.failureTerminationBehavior
    }
}
