/// Pseudonymous reference to a data subject: a keyed hash of document type and number, computed outside the domain.
public struct SubjectReference: StringValue {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
