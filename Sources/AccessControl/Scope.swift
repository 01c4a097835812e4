/// A permission an API key can hold; `admin` implies every other scope.
public enum Scope: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Start journeys and act on them.
    case journeysWrite = "journeys:write"
    /// Read journeys and their audit trail (states, timestamps, sealed fields left sealed).
    case journeysRead = "journeys:read"
    /// Read reports.
    case reportsRead = "reports:read"
    /// Answer data-subject requests: find, export (opened personal data) and erase subjects.
    case subjectsAdmin = "subjects:admin"
    /// Open personal data or a Human Token (`GET …/human-token`, the subject export); every
    /// opening is recorded as `PersonalDataDisclosed`.
    case humanTokenRead = "human-token:read"
    /// Manage the tenant's outbound webhook endpoints, read their deliveries and resend them.
    case webhooksAdmin = "webhooks:admin"
    /// Everything, including key management.
    case admin

    /// Whether holding `self` grants `scope`.
    public func grants(_ scope: Scope) -> Bool {
        self == .admin || self == scope
    }

    /// Every raw value, comma-separated, for messages that list what is allowed.
    public static var allowedValues: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Parses a raw value; the error lists the allowed ones.
    public static func parse(_ text: String) throws -> Scope {
        guard let scope = Scope(rawValue: text) else {
            throw AccessError(
                .invalidArgument,
                "unknown scope '\(text.prefix(40))'; allowed: \(allowedValues)")
        }
        return scope
    }

    /// Declaration order, which is also the order scopes are stored and shown in.
    public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .journeysWrite: 0
        case .journeysRead: 1
        case .reportsRead: 2
        case .subjectsAdmin: 3
        case .humanTokenRead: 4
        case .webhooksAdmin: 5
        case .admin: 6
        }
    }

    public var description: String { rawValue }
}
