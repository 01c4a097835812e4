import Foundation
import Synchronization

/// Keys that authenticated recently, by the SHA-256 of their presented text, so a busy caller
/// is not looked up on every request. An entry lives ``lifetime`` from its verification; only
/// verified keys are kept (a wrong secret always reaches the database), and a full cache starts
/// over rather than growing.
final class VerifiedKeyCache: Sendable {
    struct Entry {
        var key: APIKey
        var verifiedAt: Date
        /// When this process last recorded the key's use (its `last_used_at`).
        var touchedAt: Date?
    }

    let lifetime: TimeInterval
    let capacity: Int
    private let entries = Mutex<[Data: Entry]>([:])

    init(lifetime: TimeInterval, capacity: Int = 1024) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The entry for `hash` verified less than ``lifetime`` before `now`.
    func entry(for hash: Data, at now: Date) -> Entry? {
        guard lifetime > 0 else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[hash] else { return nil }
            guard now.timeIntervalSince(entry.verifiedAt) < lifetime, now >= entry.verifiedAt else {
                entries[hash] = nil
                return nil
            }
            return entry
        }
    }

    func store(_ entry: Entry, for hash: Data) {
        guard lifetime > 0 else { return }
        entries.withLock { entries in
            if entries.count >= capacity, entries[hash] == nil { entries.removeAll(keepingCapacity: true) }
            entries[hash] = entry
        }
    }

    /// Records that the key behind `hash` had its use recorded at `now`.
    func touched(_ hash: Data, at now: Date) {
        entries.withLock { $0[hash]?.touchedAt = now }
    }

    /// Forgets the key `id` (revoked by this process).
    func remove(keyID id: UUID) {
        entries.withLock { entries in entries = entries.filter { $0.value.key.id != id } }
    }
}
