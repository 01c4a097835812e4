/// The services of a ``ServiceGroup``, in start order, and how the group shuts them down.
public struct ServiceGroupConfiguration: Sendable {
    /// One service and what its end does to the group.
    public struct ServiceConfiguration: Sendable {
        /// What the group does when a service's `run()` ends before the group shuts down.
        public enum TerminationBehavior: Sendable, Equatable {
            /// Shut the other services down one by one, in reverse order.
            case gracefullyShutdownGroup
            /// Cancel the other services all at once, then wait for them.
            case cancelGroup
            /// Keep the others running (an error it threw is dropped).
            case ignore
        }

        public var service: any Service
        /// Names the service in ``ServiceGroupError``. Default: its type name.
        public var name: String
        /// When `run()` returns. Default ``TerminationBehavior/gracefullyShutdownGroup``.
        public var successTerminationBehavior: TerminationBehavior
        /// When `run()` throws; the error is rethrown by the group unless this is `.ignore`.
        /// Default ``TerminationBehavior/gracefullyShutdownGroup``.
        public var failureTerminationBehavior: TerminationBehavior
        /// How long the group waits for the service to stop once cancelled. Default 30 s.
        public var gracefulShutdownTimeout: Duration

        public init(
            service: any Service, name: String? = nil,
            successTerminationBehavior: TerminationBehavior = .gracefullyShutdownGroup,
            failureTerminationBehavior: TerminationBehavior = .gracefullyShutdownGroup,
            gracefulShutdownTimeout: Duration = .seconds(30)
        ) {
            self.service = service
            self.name = name ?? String(describing: type(of: service))
            self.successTerminationBehavior = successTerminationBehavior
            self.failureTerminationBehavior = failureTerminationBehavior
            self.gracefulShutdownTimeout = gracefulShutdownTimeout
        }
    }

    /// Started in this order, shut down in the reverse.
    public var services: [ServiceConfiguration]
    /// Signals that shut the group down. Default SIGTERM and SIGINT.
    public var gracefulShutdownSignals: [UnixSignal]

    public init(services: [ServiceConfiguration], gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) {
        self.services = services
        self.gracefulShutdownSignals = gracefulShutdownSignals
    }

    /// Each service with the default behaviours.
    public init(services: [any Service], gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) {
        self.init(services: services.map { ServiceConfiguration(service: $0) }, gracefulShutdownSignals: gracefulShutdownSignals)
    }
}
