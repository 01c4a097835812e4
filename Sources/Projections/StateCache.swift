import JourneyDomain

/// The latest states of recently changed journeys, for a rebuild (the only writer of its tables,
/// so its cache is authoritative). Least recently changed out first beyond `capacity`; an evicted
/// state is handed back to be written, and its id remembered so a later event for it reloads the
/// stored row instead of starting from scratch.
struct StateCache {
    struct Entry {
        var state: JourneyState
        /// Position of the last event applied.
        var position: Int64
        /// The journey's row is in the table already (written, evicted and reloaded): update it.
        var stored: Bool
        fileprivate var stamp: Int
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    /// Every store, oldest first; an item is stale once its id was stored again later.
    private var touches: [(id: String, stamp: Int)] = []
    private var head = 0
    private var clock = 0
    /// Ids whose rows are (being) written and not cached.
    private(set) var evicted: Set<String> = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    subscript(id: String) -> JourneyState? { entries[id]?.state }

    var count: Int { entries.count }

    /// Stores `state` for `id`; `stored` tells a reloaded journey (its row exists) from a new one.
    mutating func store(_ state: JourneyState, position: Int64, for id: String, stored: Bool) {
        clock += 1
        if entries[id] != nil {
            entries[id]!.state = state
            entries[id]!.position = position
            entries[id]!.stamp = clock
        } else {
            entries[id] = Entry(state: state, position: position, stored: stored, stamp: clock)
            evicted.remove(id)
        }
        touches.append((id, clock))
    }

    /// Removes the least recently stored entries beyond capacity (every entry when `all`) and
    /// returns them, oldest first; their ids count as evicted from now on.
    mutating func evict(all: Bool = false) -> [(id: String, entry: Entry)] {
        let keep = all ? 0 : capacity
        var out: [(id: String, entry: Entry)] = []
        while entries.count > keep, head < touches.count {
            let touch = touches[head]
            head += 1
            guard let entry = entries[touch.id], entry.stamp == touch.stamp else { continue }
            entries[touch.id] = nil
            evicted.insert(touch.id)
            out.append((touch.id, entry))
        }
        if head > 4096, head * 2 > touches.count {
            touches.removeFirst(head)
            head = 0
        }
        return out
    }
}
