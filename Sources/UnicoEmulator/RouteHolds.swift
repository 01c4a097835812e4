import Synchronization

/// Routes whose requests wait, before any other fault, until the test releases them: a call stays
/// in flight exactly as long as a test needs, with no latency to guess.
public final class RouteHolds: Sendable {
    private struct State {
        var held: Set<FaultScript.Route> = []
        var waiting: [FaultScript.Route: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Requests on `route` from now on wait until ``release(_:)``.
    public func hold(_ route: FaultScript.Route) {
        _ = state.withLock { $0.held.insert(route) }
    }

    /// Lets every waiting request on `route` go on, and later ones pass.
    public func release(_ route: FaultScript.Route) {
        let waiting = state.withLock { state in
            state.held.remove(route)
            return state.waiting.removeValue(forKey: route) ?? []
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many requests on `route` wait now.
    public func waiting(_ route: FaultScript.Route) -> Int {
        state.withLock { $0.waiting[route]?.count ?? 0 }
    }

    /// Returns at once unless `route` is held; then when it is released.
    func pass(_ route: FaultScript.Route) async {
        guard state.withLock({ $0.held.contains(route) }) else { return }
        await withCheckedContinuation { continuation in
            let held = state.withLock { state in
                guard state.held.contains(route) else { return false }
                state.waiting[route, default: []].append(continuation)
                return true
            }
            if !held { continuation.resume() }
        }
    }
}
