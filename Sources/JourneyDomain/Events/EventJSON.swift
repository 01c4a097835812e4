import Foundation
import Timestamps

/// JSON settings shared by every journey event: sorted keys and RFC 3339 UTC microsecond dates.
public enum EventJSON {
    /// An encoder whose output is stable for equal values.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return encoder
    }

    /// A decoder that reads what ``makeEncoder()`` writes.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "expected an RFC 3339 timestamp, got \"\(text)\""
                )
            }
            return date
        }
        return decoder
    }
}
