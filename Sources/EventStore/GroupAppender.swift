import Postgres
import Synchronization

/// Group commit for appends that stand alone (each would be its own transaction): concurrent
/// appends to different streams go to the server together, in one round trip, one transaction
/// and one commit (`append_events_group`, schema 0027), and each gets its own outcome.
///
/// - No added wait: an append is sent at once when fewer than `concurrentGroups` groups are in
///   flight; otherwise it joins the next group, which leaves as soon as one comes back.
/// - A group holds at most one append per stream; a later append to the same stream waits for
///   the next group, so one caller's appends keep their order.
/// - A refused append (wrong expected version, duplicate id, invalid input) fails alone with the
///   same error as the direct path. An append the group could not take (its stream locked by
///   another transaction, an order conflict) and every append of a group that failed as a whole
///   (connection lost, unexpected error) is appended again on its own by the direct path, which
///   is safe: event ids make a committed append's retry return its first write.
final class GroupAppender: Sendable {
    /// One append waiting for its group.
    struct Request: Sendable {
        let events: [NewEvent]
        let stream: StreamName
        let expected: ExpectedVersion
        let continuation: CheckedContinuation<AppendResult, Error>
    }

    private struct State {
        var queue: [Request] = []
        var inFlight = 0
    }

    let client: PostgresClient
    let configuration: EventStore.Grouping
    private let state = Mutex(State())

    init(client: PostgresClient, configuration: EventStore.Grouping) {
        self.client = client
        self.configuration = configuration
    }

    /// Appends through the next group; returns when its group committed (or it failed alone).
    func append(_ events: [NewEvent], to stream: StreamName, expectedVersion: ExpectedVersion) async throws -> AppendResult {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.queue.append(Request(events: events, stream: stream, expected: expectedVersion, continuation: continuation))
                guard state.inFlight < configuration.concurrentGroups else { return false }
                state.inFlight += 1
                return true
            }
            if start { Task.detached { [self] in await drain() } }
        }
    }

    /// Sends groups until the queue is empty.
    private func drain() async {
        while let group = nextGroup() {
            await send(group)
        }
    }

    /// Takes the next group off the queue (at most one append per stream, within the limits),
    /// or ends this sender when the queue is empty.
    private func nextGroup() -> [Request]? {
        state.withLock { state -> [Request]? in
            guard !state.queue.isEmpty else {
                state.inFlight -= 1
                return nil
            }
            var taken: [Request] = []
            var rest: [Request] = []
            var streams = Set<StreamName>()
            var events = 0
            for request in state.queue {
                let fits =
                    taken.isEmpty
                    || (taken.count < configuration.maximumAppends
                        && events + request.events.count <= configuration.maximumEvents)
                if fits && streams.insert(request.stream).inserted {
                    taken.append(request)
                    events += request.events.count
                } else {
                    streams.insert(request.stream)
                    rest.append(request)
                }
            }
            state.queue = rest
            return taken
        }
    }

    private func send(_ group: [Request]) async {
        // One lock order for every group: by stream name.
        let sorted = group.sorted { $0.stream.rawValue < $1.stream.rawValue }
        let appends = sorted.map { GroupedAppend(events: $0.events, stream: $0.stream, expected: $0.expected) }
        let outcomes: [GroupedAppend.Outcome]
        do {
            outcomes = try await client.withConnection { try EventStore.appendGroup(appends, on: $0) }
        } catch {
            outcomes = Array(repeating: .alone, count: sorted.count)
        }
        for (request, outcome) in zip(sorted, outcomes) {
            switch outcome {
            case .written(let result): request.continuation.resume(returning: result)
            case .refused(let error): request.continuation.resume(throwing: error)
            case .alone: appendAlone(request)
            }
        }
    }

    /// The direct path, in its own transaction, without holding up the next group.
    private func appendAlone(_ request: Request) {
        Task.detached { [client] in
            do {
                let result = try await client.withConnection {
                    try EventStore.append(request.events, to: request.stream, expectedVersion: request.expected, on: $0)
                }
                request.continuation.resume(returning: result)
            } catch {
                request.continuation.resume(throwing: error)
            }
        }
    }
}
