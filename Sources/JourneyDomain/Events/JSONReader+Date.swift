import Foundation
import JSONBytes
import Timestamps

extension JSONReader {
    /// An RFC 3339 date, parsed by the one parser ``EventJSON`` uses.
    mutating func date() throws(JSONReadError) -> Date {
        let start = offset
        guard let date = RFC3339.date(from: try string()) else { throw JSONReadError(.unexpectedValue, at: start) }
        return date
    }
}
