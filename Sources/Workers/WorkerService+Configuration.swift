import Foundation
import Observability

extension WorkerService {
    /// How often and how much a worker claims, and for how long.
    public struct Configuration: Sendable {
        /// Longest wait between polls when nothing was due. Default 2 s (token expiry is seen
        /// within 30 s of it with room to spare).
        public var pollInterval: Duration
        /// Items claimed per poll. Default 50.
        public var batchSize: Int
        /// Due items copied from `journey_state` at a time, when fewer than a batch are waiting. Default 500.
        public var seedSize: Int
        /// How long a claim holds before another worker may take the item. Default 60 s (longer
        /// than a Unico call's timeout, 10 s by default). Renewed by heartbeat while in flight.
        public var leaseDuration: TimeInterval
        /// How often the leases of items in flight are renewed. Default 15 s.
        public var heartbeatInterval: Duration
        /// Items performed at once by this worker. Default 8.
        public var concurrency: Int
        /// How long finished items are kept (so a lagging read model cannot run them again). Default 1 h.
        public var doneRetention: TimeInterval
        /// This worker's name in `work_leases.worker`. Default: host name, process id and a random suffix.
        public var workerID: String
        /// Timing of items that could not finish.
        public var performer: DuePerformer.Configuration
        /// Where failures are logged: a constant message with metadata (kind, attempt, journey id,
        /// error type, worker id; never personal data). Default: label `worker`, JSON lines on
        /// standard error.
        public var logger = Logger(label: "worker")

        public init(
            pollInterval: Duration = .seconds(2), batchSize: Int = 50, seedSize: Int = 500, leaseDuration: TimeInterval = 60,
            heartbeatInterval: Duration = .seconds(15), concurrency: Int = 8, doneRetention: TimeInterval = 3600,
            workerID: String = Configuration.defaultWorkerID(), performer: DuePerformer.Configuration = .init()
        ) {
            self.pollInterval = pollInterval
            self.batchSize = batchSize
            self.seedSize = seedSize
            self.leaseDuration = leaseDuration
            self.heartbeatInterval = heartbeatInterval
            self.concurrency = concurrency
            self.doneRetention = doneRetention
            self.workerID = workerID
            self.performer = performer
        }

        /// `host:pid:random`, unique per process and service.
        public static func defaultWorkerID() -> String {
            let host = ProcessInfo.processInfo.hostName.prefix(40)
            return "\(host):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8).lowercased())"
        }

        /// Throws `invalid_configuration` naming the first unusable setting.
        public func validate() throws {
            func check(_ ok: Bool, _ message: String) throws {
                if !ok { throw WorkerError(.invalidConfiguration, message) }
            }
            try check(pollInterval > .zero, "pollInterval must be positive")
            try check(batchSize >= 1, "batchSize must be at least 1")
            try check(seedSize >= 1, "seedSize must be at least 1")
            try check(leaseDuration > 0 && leaseDuration.isFinite, "leaseDuration must be a positive number of seconds")
            try check(heartbeatInterval > .zero, "heartbeatInterval must be positive")
            try check(concurrency >= 1, "concurrency must be at least 1")
            try check(!workerID.isEmpty, "workerID must not be empty")
        }
    }
}
