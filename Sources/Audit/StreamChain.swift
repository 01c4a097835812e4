import EventStore
import Foundation

/// Recomputes one stream's hash chain outside the database (``EventHash``).
public enum StreamChain {
    /// The outcome for one stream.
    public struct Result: Sendable, Equatable, Encodable {
        public var intact: Bool
        public var events: Int
        /// The first version that does not hold, and why.
        public var brokenAtVersion: Int64?
        public var reason: String?
    }

    /// Checks that versions run 1...n, each previous hash links and each hash matches its content.
    public static func verify(_ events: [RecordedEvent]) -> Result {
        var previous = Data(repeating: 0, count: 32)
        for (index, event) in events.enumerated() {
            let expected = Int64(index + 1)
            func broken(_ reason: String) -> Result {
                Result(intact: false, events: events.count, brokenAtVersion: expected, reason: reason)
            }
            if event.streamVersion != expected { return broken("version \(expected) is missing") }
            if event.previousHash != previous { return broken("previous hash does not link to the event before it") }
            if EventHash.hash(of: event) != event.hash { return broken("content does not match its hash (altered)") }
            previous = event.hash
        }
        return Result(intact: true, events: events.count, brokenAtVersion: nil, reason: nil)
    }
}
