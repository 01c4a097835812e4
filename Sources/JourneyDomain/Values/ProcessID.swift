/// Identifier of a Unico process (the `id` of Create Process, the `processId` of `onSuccess`).
public struct ProcessID: StringValue {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
