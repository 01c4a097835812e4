import Foundation

/// Reads the credential of an `Authorization: Bearer <token>` header (RFC 6750 §2.1).
public enum BearerCredentials {
    /// The longest header value read; longer ones are refused unread.
    public static let maximumLength = 8 * 1024

    /// The token of a Bearer header; nil for another scheme, no token, or spaces inside it.
    /// The scheme is matched case-insensitively; the spaces and tabs around the value and after
    /// the scheme are HTTP's optional whitespace (RFC 9110 §5.6.3).
    public static func token(fromAuthorization header: String) -> String? {
        guard header.utf8.count <= maximumLength else { return nil }
        let trimmed = header.trimmingHTTPWhitespace()
        let scheme = trimmed.prefix { !$0.isWhitespace }
        guard scheme.count == 6, scheme.lowercased() == "bearer" else { return nil }
        let token = trimmed.dropFirst(scheme.count).trimmingHTTPWhitespace()
        guard !token.isEmpty, !token.contains(where: \.isWhitespace) else { return nil }
        return String(token)
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// Without the spaces and horizontal tabs at either end (HTTP's optional whitespace), read
    /// byte by byte instead of through Foundation's character sets.
    func trimmingHTTPWhitespace() -> SubSequence {
        let utf8 = self.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while end > start {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        return self[start..<end]
    }
}
