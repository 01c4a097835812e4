/// Unico flow name sent with Create Process; Unico documents it only as a string.
public struct Flow: StringValue {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
