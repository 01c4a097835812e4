import Cryptography

/// One connection's named prepared statements by SQL text, least recently used first out.
///
/// A statement's name is a digest of its SQL text (``name(of:)``), never a per-connection counter:
/// a server session that a pooler hands from one client to another can then hold a name only for
/// the very text this client means, so a mixed-up session fails with "does not exist" (or "already
/// exists") and never runs another statement with this client's binds.
///
/// A value type with no I/O: the connection prepares and deallocates what it returns.
struct StatementCache {
    /// Most statements kept; 0 turns the cache off.
    let capacity: Int
    private var entries: [String: (name: String, lastUse: UInt64)] = [:]
    private var tick: UInt64 = 0
    /// Names dropped from the cache while the server may still hold them (a changed result type
    /// inside a transaction); deallocated before the next prepare outside a failed transaction.
    var stale: [String] = []

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var isEnabled: Bool { capacity > 0 }
    var count: Int { entries.count }

    /// The statement's name when it is prepared on this connection; marks it used.
    mutating func name(for sql: String) -> String? {
        guard let entry = entries[sql] else { return nil }
        tick &+= 1
        entries[sql] = (entry.name, tick)
        return entry.name
    }

    /// The name `sql` is prepared under on every connection: `j` and the first 128 bits of its
    /// SHA-256 in hex (33 characters, within PostgreSQL's 63).
    static func name(of sql: String) -> String {
        "j" + SHA256.hexDigest(sql).prefix(32)
    }

    /// The name for `sql`, and the least recently used statement to deallocate when the cache is
    /// full. Call ``insert(_:name:)`` once the server prepared it.
    mutating func reserve(for sql: String) -> (name: String, evicted: String?) {
        let name = Self.name(of: sql)
        guard entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        else { return (name, nil) }
        entries[oldest.key] = nil
        return (name, oldest.value.name)
    }

    /// Records that `sql` is prepared as `name`.
    mutating func insert(_ sql: String, name: String) {
        tick &+= 1
        entries[sql] = (name, tick)
    }

    /// Forgets one statement (its server copy is stale).
    mutating func remove(_ sql: String) -> String? {
        entries.removeValue(forKey: sql)?.name
    }

    /// Forgets everything (reconnect, DISCARD ALL): the server holds none of them any more.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }
}
