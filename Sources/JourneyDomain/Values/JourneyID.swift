/// Identifier of one journey; generated outside the domain and opaque to it.
public struct JourneyID: StringValue {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
