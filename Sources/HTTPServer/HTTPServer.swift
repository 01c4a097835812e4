import Foundation
import Synchronization

/// The project's HTTP server: libmicrohttpd underneath, a `Router` on top.
///
/// Use it as a service: `try await server.run()` starts listening and returns after the
/// surrounding task is cancelled (or `shutdown()` is called) and a graceful shutdown finished:
/// no new connections, in-flight requests get up to `shutdownTimeout`, then every connection
/// closes. Tests may call `start()` and `shutdown()` directly.
///
/// ```swift
/// var router = Router()
/// router.get("/v1/journeys/{id}") { request in try .json(journey(try request.pathParameter("id"))) }
/// let server = HTTPServer(configuration: .init(port: 8080), router: router)
/// try await server.run()
/// ```
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running(MHDDaemon)
        case stopping
        case stopped
    }

    private enum Step {
        case stop(MHDDaemon)
        case done
    }

    private struct State {
        var phase: Phase = .idle
        var port: Int?
        var shutdownRequested = false
        var runWaiter: CheckedContinuation<Void, Never>?
        var stopWaiters: [CheckedContinuation<Step, Never>] = []
        var sweeper: Task<Void, Never>?
    }

    public let configuration: Configuration
    private let router: Router
    private let accessLog: @Sendable (AccessLogEntry) -> Void
    private let makeRequestID: @Sendable () -> String
    private let state = Mutex(State())

    /// Creates a server; nothing listens until `run()` or `start()`.
    ///
    /// - Parameters:
    ///   - accessLog: receives one entry per answered request, on a server thread, so it must be
    ///     quick and must not block; defaults to JSON lines on stderr.
    ///   - makeRequestID: ids for requests without a usable `X-Request-ID`; defaults to UUIDs.
    public init(
        configuration: Configuration = Configuration(),
        router: Router,
        accessLog: @escaping @Sendable (AccessLogEntry) -> Void = AccessLogEntry.standardError,
        makeRequestID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.configuration = configuration
        self.router = router
        self.accessLog = accessLog
        self.makeRequestID = makeRequestID
    }

    /// The bound port while running (the picked one when configured with port 0).
    public var port: Int? {
        state.withLock { $0.port }
    }

    /// Starts listening and serves until cancelled, then shuts down gracefully.
    public func run() async throws {
        try start()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.shutdownRequested { return true }
                    state.runWaiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            requestShutdown()
        }
        await shutdown()
    }

    /// Binds and starts serving; throws if the configuration is invalid, the port is taken or the
    /// server was started before.
    public func start() throws(HTTPServerError) {
        try configuration.validate()
        try state.withLock { (state) throws(HTTPServerError) in
            guard case .idle = state.phase else {
                throw HTTPServerError(code: .alreadyStarted, message: "An HTTPServer can be started once")
            }
            let deadlines = configuration.makeDeadlines()
            let dispatcher = RequestDispatcher(
                router: router, maxBodySize: configuration.maxBodySize, maxHeaderSize: configuration.maxHeaderSize,
                deadlines: deadlines, addressLimit: configuration.makeAddressLimit(),
                accessLog: accessLog, makeRequestID: makeRequestID
            )
            let daemon = try MHDDaemon(configuration: configuration, dispatcher: dispatcher)
            state.port = daemon.port
            state.phase = .running(daemon)
            state.sweeper = deadlines.map(Self.sweep)
        }
    }

    /// Answers new requests with 503, waits up to `shutdownTimeout` for in-flight requests, then
    /// closes everything. Safe to call more than once; later calls wait for the first to finish.
    public func shutdown() async {
        let step: Step = await withCheckedContinuation { (continuation: CheckedContinuation<Step, Never>) in
            let (step, runWaiter) = state.withLock { state -> (Step?, CheckedContinuation<Void, Never>?) in
                state.shutdownRequested = true
                let runWaiter = state.runWaiter.take()
                switch state.phase {
                case .running(let daemon):
                    state.phase = .stopping
                    return (.stop(daemon), runWaiter)
                case .stopping:
                    state.stopWaiters.append(continuation)
                    return (nil, runWaiter)
                case .idle, .stopped:
                    state.phase = .stopped
                    return (.done, runWaiter)
                }
            }
            runWaiter?.resume()
            if let step { continuation.resume(returning: step) }
        }
        guard case .stop(let daemon) = step else { return }
        daemon.drain()
        await Self.waitUntilIdle(daemon.dispatcher, timeout: configuration.shutdownTimeout)
        daemon.stop()
        let waiters = state.withLock { state in
            state.sweeper.take()?.cancel()
            state.phase = .stopped
            state.port = nil
            defer { state.stopWaiters.removeAll() }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume(returning: .done) }
    }

    private func requestShutdown() {
        let waiter = state.withLock { state in
            state.shutdownRequested = true
            return state.runWaiter.take()
        }
        waiter?.resume()
    }

    /// Connections cut because their request head came too late (see
    /// `Configuration.requestHeadTimeout`), since start.
    public var lateHeadsCut: Int {
        state.withLock { state in
            guard case .running(let daemon) = state.phase else { return 0 }
            return daemon.dispatcher.deadlines?.headsCut ?? 0
        }
    }

    /// Connections cut because their request body came too late (see
    /// `Configuration.requestBodyTimeout`), since start.
    public var lateBodiesCut: Int {
        state.withLock { state in
            guard case .running(let daemon) = state.phase else { return 0 }
            return daemon.dispatcher.deadlines?.bodiesCut ?? 0
        }
    }

    /// Connections counted against the per-address limit for `numericAddress` now (0 without a
    /// limit or when not running); tests wait on it before racing a connection past the limit.
    func connectionsCounted(from numericAddress: String) -> Int {
        state.withLock { state in
            guard case .running(let daemon) = state.phase, let limit = daemon.dispatcher.addressLimit,
                let key = ConnectionsPerAddress.Key(numeric: numericAddress)
            else { return 0 }
            return limit.count(key)
        }
    }

    /// Cuts connections with overdue heads or bodies until cancelled or the deadlines are released.
    private static func sweep(_ deadlines: RequestDeadlines) -> Task<Void, Never> {
        let interval = deadlines.sweepInterval
        return Task.detached { [weak deadlines] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let deadlines else { return }
                deadlines.sweep()
            }
        }
    }

    /// Polls the in-flight count in a task of its own, so a cancelled caller still gets its grace period.
    private static func waitUntilIdle(_ dispatcher: RequestDispatcher, timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        await Task {
            while dispatcher.inFlight > 0 && ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }.value
    }
}
