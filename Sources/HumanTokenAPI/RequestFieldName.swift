import Cryptography
import JSONBytes

/// Finds which Create Process field an error message from Unico is about.
///
/// A message that starts with a path and a colon (`person.notifications[0].notificationChannel: ...`)
/// names that path, indices kept. Otherwise the first known field path (`person.duiValue`), bare
/// known leaf (`duiValue`) or its snake_case form (`dui_value`) wins, without indices.
enum RequestFieldName {
    /// Every field of ``CreateProcessRequest``, as dotted paths.
    static let known: [String] = [
        "callbackUri", "flow", "purpose", "person", "person.duiType", "person.duiValue",
        "person.friendlyName", "person.phone", "person.email", "person.notifications",
        "person.notifications.notificationChannel", "clientReference", "expiresIn",
    ]

    /// The field a structured error body names (`field`, or gRPC `fieldViolations[].field`).
    static func structured(in error: JSONValue) -> String? {
        if let field = error["field"]?.stringValue { return canonical(field) ?? field }
        for detail in error["details"]?.arrayValue ?? [] {
            for violation in detail["fieldViolations"]?.arrayValue ?? [] {
                if let field = violation["field"]?.stringValue { return canonical(field) ?? field }
            }
        }
        return nil
    }

    /// The first known field `message` mentions, as a canonical dotted path.
    static func mentioned(in message: String) -> String? {
        if let colon = message.firstIndex(of: ":") {
            let head = String(message[..<colon])
            if let only = candidates(in: head).first, only == head, only.first?.isLetter == true {
                return known.contains(normalized(only)) ? only : canonical(only) ?? only
            }
        }
        let words = candidates(in: message)
        for word in words where known.contains(normalized(word)) { return normalized(word) }
        for word in words { if let path = canonical(word) { return path } }
        return nil
    }

    /// A known path for `name`, matched in full, by its last segment, or from snake_case.
    static func canonical(_ name: String) -> String? {
        let path = normalized(name)
        if known.contains(path) { return path }
        let camel = path.split(separator: ".").map { camelCased(String($0)) }.joined(separator: ".")
        if known.contains(camel) { return camel }
        guard let leaf = camel.split(separator: ".").last else { return nil }
        let matches = known.filter { $0 == leaf || $0.hasSuffix("." + leaf) }
        return matches.min { $0.count < $1.count }
    }

    /// Identifier-like words with dots and `[n]` indices, e.g. `person.notifications[0].x`.
    private static func candidates(in message: String) -> [String] {
        var words: [String] = []
        var current = ""
        for char in message {
            if char.isLetter || char.isNumber || char == "_" || char == "." || char == "[" || char == "]" {
                current.append(char)
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.trimming(".") }.filter { !$0.isEmpty }
    }

    private static func normalized(_ word: String) -> String {
        var out = ""
        var inIndex = false
        for char in word {
            if char == "[" { inIndex = true } else if char == "]" { inIndex = false } else if !inIndex { out.append(char) }
        }
        return out
    }

    private static func camelCased(_ word: String) -> String {
        let parts = word.split(separator: "_")
        guard let first = parts.first else { return word }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

private extension String {
    func trimming(_ set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
