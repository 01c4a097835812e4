import Foundation

/// Reads the credential of an `Authorization: Bearer <token>` header (RFC 6750 §2.1).
public enum BearerCredentials {
    /// The longest header value read; longer ones are refused unread.
    public static let maximumLength = 8 * 1024

    /// The token of a Bearer header; nil for another scheme, no token, or spaces inside it.
    /// The scheme is matched case-insensitively.
    public static func token(fromAuthorization header: String) -> String? {
        guard header.utf8.count <= maximumLength else { return nil }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        let scheme = trimmed.prefix { !$0.isWhitespace }
        guard scheme.lowercased() == "bearer" else { return nil }
        let token = trimmed.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, !token.contains(where: \.isWhitespace) else { return nil }
        return token
    }
}
