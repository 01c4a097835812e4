import EventStore
import Foundation
import Postgres

/// A small event with a counter payload.
func event(_ n: Int, type: String = "Counted", id: UUID = UUID(), actor: String? = "test") -> NewEvent {
    NewEvent(
        id: id, type: type, data: JSONB(text: #"{"n": \#(n)}"#),
        metadata: EventMetadata(correlationID: UUID(), causationID: nil, actor: actor))
}

/// Stream names unique per test.
func stream(_ label: String = "s") -> StreamName { StreamName("\(label)-\(UUID().uuidString.lowercased())") }
