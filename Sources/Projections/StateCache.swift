import JourneyDomain

/// The latest states of recently seen journeys, for a rebuild (the only writer of its tables, so
/// its cache is authoritative). First in, first out beyond `capacity`; evicted ids are remembered
/// so a later event for one reloads its stored state instead of starting from scratch.
struct StateCache {
    let capacity: Int
    private var states: [String: JourneyState] = [:]
    private var order: [String] = []
    private var head = 0
    /// Ids whose states were evicted (their rows are stored).
    private(set) var evicted: Set<String> = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    subscript(id: String) -> JourneyState? { states[id] }

    /// Stores `state` for `id`, evicting the oldest entries beyond capacity.
    mutating func store(_ state: JourneyState, for id: String) {
        if states.updateValue(state, forKey: id) == nil {
            order.append(id)
            evicted.remove(id)
        }
        while states.count > capacity, head < order.count {
            let old = order[head]
            head += 1
            if states.removeValue(forKey: old) != nil { evicted.insert(old) }
        }
        if head > 4096, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
