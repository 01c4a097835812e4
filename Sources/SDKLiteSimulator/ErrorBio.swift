/// An SDK error as the delegate receives it: one of the seed's codes (or 73204) and a description.
///
/// Descriptions never contain the `webAppToken`.
public struct ErrorBio: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error code, e.g. `73305`; see ``ErrorBio/Code``.
    public let code: Int
    /// What went wrong, for logs.
    public let description: String

    public init(code: Int, description: String) {
        self.code = code
        self.description = description
    }
}
