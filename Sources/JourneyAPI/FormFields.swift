import Foundation

/// `application/x-www-form-urlencoded` bodies.
enum FormFields {
    /// The fields of `body`; nil when it is not UTF-8, a name repeats or an escape is broken.
    static func parse(_ body: Data) -> [String: String]? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : ""),
                fields[name] == nil
            else { return nil }
            fields[name] = value
        }
        return fields
    }

    /// One form-encoded part: `+` is a space, then percent-decoding.
    static func decode(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
