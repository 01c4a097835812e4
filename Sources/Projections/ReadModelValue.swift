import Foundation
import JourneyDomain

/// One column's value in a read-model row, before it is written as JSON (the live upsert) or as
/// `COPY` text (a rebuild).
enum ReadModelValue {
    case null
    case text(String)
    case int(Int)
    /// A `timestamptz`: RFC 3339 text in either format.
    case timestamp(Date)
    /// A `jsonb` column holding the journey's state (``JourneyStateJSON``).
    case state(JourneyState)

    /// `value`, or NULL.
    init(text value: String?) { self = value.map(Self.text) ?? .null }
    /// `value`, or NULL.
    init(int value: Int?) { self = value.map(Self.int) ?? .null }
    /// `value`, or NULL.
    init(timestamp value: Date?) { self = value.map(Self.timestamp) ?? .null }
}
