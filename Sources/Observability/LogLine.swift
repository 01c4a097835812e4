import Foundation
import Timestamps

/// The one log line schema, for every log this project writes (the ``Logger``'s entries and the
/// HTTP access log): one JSON object on one line, keys in this order:
///
/// `{"ts":"2026-11-12T08:30:00.250000Z","level":"info","label":"api","message":"…",…fields}`
///
/// `ts` is RFC 3339 in UTC with six fraction digits, `level` one of ``Logger/Level``, `label` the
/// component, `message` constant text; the fields follow in the order given, a field named like
/// one of the four left out.
public enum LogLine {
    /// A field's value.
    public enum Value: Sendable, Equatable {
        case string(String)
        case int(Int)
        /// Written as Swift prints it; `null` when not finite.
        case double(Double)
        case bool(Bool)
        case null
    }

    /// The keys every line starts with.
    public static let fixedKeys: Set<String> = ["ts", "level", "label", "message"]

    /// The line, without a newline.
    public static func render(
        time: Date, level: Logger.Level, label: String, message: String, fields: [(key: String, value: Value)]
    ) -> String {
        var line = #"{"ts":""#
        line.reserveCapacity(160 + message.utf8.count + fields.count * 24)
        line += RFC3339.string(from: time)
        line += #"","level":""#
        line += level.rawValue
        line += #"","label":"#
        appendQuoted(label, to: &line)
        line += #","message":"#
        appendQuoted(message, to: &line)
        for (key, value) in fields where !fixedKeys.contains(key) {
            line += ","
            appendQuoted(key, to: &line)
            line += ":"
            switch value {
            case .string(let text): appendQuoted(text, to: &line)
            case .int(let number): line += String(number)
            case .double(let number): line += number.isFinite ? "\(number)" : "null"
            case .bool(let flag): line += flag ? "true" : "false"
            case .null: line += "null"
            }
        }
        line += "}"
        return line
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, so a line
    /// stays one line.
    static func appendQuoted(_ text: String, to line: inout String) {
        line += "\""
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            line += text
            line += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }
}
