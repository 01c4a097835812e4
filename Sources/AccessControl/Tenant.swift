import Foundation

/// A company a deployment serves: it owns API keys, and its keys read only its own journeys.
public struct Tenant: Sendable, Hashable {
    /// The tenant every deployment has; keys and journeys from before tenants belong to it.
    public static let defaultName = "default"
    /// Longest tenant name, in characters (the table's limit).
    public static let maximumNameLength = 40

    public let name: String
    public let createdAt: Date

    public init(name: String, createdAt: Date) {
        self.name = name
        self.createdAt = createdAt
    }

    /// `name` if it is a valid tenant name: 1 to 40 of `a-z`, `0-9`, `-`, `_`, starting with a
    /// letter; `invalid_argument` naming the rule otherwise.
    public static func validName(_ name: String) throws -> String {
        let scalars = Array(name.unicodeScalars)
        let valid =
            !scalars.isEmpty && scalars.count <= maximumNameLength
            && ("a"..."z").contains(scalars[0])
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        guard valid else {
            throw AccessError(
                .invalidArgument,
                "invalid tenant name '\(String(name.prefix(maximumNameLength)))': use 1 to \(maximumNameLength) of a-z, 0-9, "
                    + "'-' and '_', starting with a letter")
        }
        return name
    }
}
