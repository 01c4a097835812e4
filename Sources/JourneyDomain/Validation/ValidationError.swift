/// Start input was refused; lists every invalid field.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable code for the whole error.
    public static let code = "validation_failed"

    public var issues: [FieldIssue]

    public init(issues: [FieldIssue]) {
        self.issues = issues
    }

    /// The fields named by the issues, in order.
    public var fields: [String] { issues.map(\.field) }

    /// The issues' messages joined by "; ".
    public var message: String { issues.map(\.message).joined(separator: "; ") }

    public var description: String { "\(Self.code): \(message)" }
}
