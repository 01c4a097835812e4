/// One invalid input field: its path (e.g. `subject.documentNumber`), a stable code and a message naming it.
///
/// Messages never repeat the submitted value, which may be personal data.
public struct FieldIssue: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Stable codes for field problems.
    public enum Code: String, Hashable, Sendable, Codable, CaseIterable {
        case required
        case invalidValue = "invalid_value"
        case invalidFormat = "invalid_format"
        case tooLong = "too_long"
    }

    /// Path of the field as the API names it.
    public var field: String
    public var code: Code
    public var message: String

    public init(field: String, code: Code, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
