import Foundation

/// Checks an endpoint URL: `https`, or `http` for a loopback host only (local receivers and
/// tests); a host; no user name or password; no fragment; at most 2000 characters.
public enum WebhookURL {
    /// The longest URL accepted (the table's limit).
    public static let maximumLength = 2000

    /// The URL, trimmed, when acceptable; otherwise `invalid_argument` saying which rule failed
    /// (the message never repeats the URL, which may carry a token in its query).
    public static func validate(_ text: String) throws(WebhookError) -> String {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw invalid("url is empty") }
        guard text.count <= maximumLength else { throw invalid("url is longer than \(maximumLength) characters") }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid("url is not an absolute URL")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("url has no host") }
        guard components.user == nil, components.password == nil else {
            throw invalid("url must not contain a user name or password")
        }
        guard components.fragment == nil else { throw invalid("url must not contain a fragment") }
        switch scheme {
        case "https": return text
        case "http" where isLoopback(host): return text
        case "http": throw invalid("url must use https (http is allowed for loopback hosts only)")
        default: throw invalid("url must use https")
        }
    }

    /// `localhost`, `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    private static func invalid(_ message: String) -> WebhookError {
        WebhookError(.invalidArgument, message)
    }
}
