import Foundation
import JourneyDomain
import Timestamps

/// Parses the `--as-of` / `asOf` timestamp: RFC 3339 with an offset, e.g.
/// `2026-11-29T18:00:00Z` or `2026-11-29T15:00:00.250-03:00` (fractions beyond microseconds are cut).
public enum AsOf {
    /// The accepted form, for error messages.
    public static let expected = "an RFC 3339 timestamp such as 2026-11-29T18:00:00Z"

    /// The instant `text` names; throws `invalid_input` naming `field`.
    public static func parse(_ text: String, field: String) throws(AuditError) -> Date {
        guard let date = RFC3339.date(from: text.trimmingCharacters(in: .whitespaces)) else {
            throw AuditError(.invalidInput, "\(field) must be \(Self.expected)", field: field)
        }
        return date
    }
}
