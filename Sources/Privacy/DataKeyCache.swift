import Synchronization

/// Unwrapped data keys by subject reference, each kept for a short lifetime.
///
/// Holds only keys of committed rows (the vault stores a key only when it read or created it
/// outside a transaction). An erasure in this process ``suppress(_:)``es the subject: its
/// entry is dropped and nothing is stored for it for one lifetime, so a lookup racing the
/// erasure cannot put the key back. Erasures by other processes: transactions (starts, openings)
/// check `erased_at` before using a cached key (``SubjectVault``); other reads see them once entries expire.
final class DataKeyCache: Sendable {
    private enum Entry {
        case key(SecretKey, expires: ContinuousClock.Instant)
        case suppressed(until: ContinuousClock.Instant)
    }

    let lifetime: Duration
    let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex<[String: Entry]>([:])

    /// A `lifetime` of zero or less disables the cache.
    init(lifetime: Duration, capacity: Int = 4096, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    var isEnabled: Bool { lifetime > .zero }

    func key(for subject: String) -> SecretKey? {
        guard isEnabled else { return nil }
        let now = now()
        return entries.withLock { entries in
            guard case .key(let key, let expires) = entries[subject] else { return nil }
            guard now < expires else {
                entries[subject] = nil
                return nil
            }
            return key
        }
    }

    func store(_ key: SecretKey, for subject: String) {
        guard isEnabled else { return }
        let now = now()
        entries.withLock { entries in
            if case .suppressed(let until) = entries[subject], now < until { return }
            if entries.count >= capacity {
                entries = entries.filter { _, entry in
                    switch entry {
                    case .key(_, let expires): return now < expires
                    case .suppressed(let until): return now < until
                    }
                }
                guard entries.count < capacity else { return }
            }
            entries[subject] = .key(key, expires: now + lifetime)
        }
    }

    /// Drops the subject's key and refuses to store it again for one lifetime.
    func suppress(_ subject: String) {
        guard isEnabled else { return }
        let until = now() + lifetime
        entries.withLock { $0[subject] = .suppressed(until: until) }
    }
}
