/// A positional argument, e.g. the report `NAME` in `journeys report NAME`.
public struct PositionalSpec: Sendable, Equatable {
    /// The name used to read the value, shown in help as `<name>`.
    public var name: String
    /// One line of help.
    public var help: String
    /// Whether parsing fails when the argument is absent.
    public var isRequired: Bool
    /// Whether the argument takes all remaining values; only the last positional may.
    public var isRepeatable: Bool

    public init(_ name: String, help: String, isRequired: Bool = true, isRepeatable: Bool = false) {
        self.name = name
        self.help = help
        self.isRequired = isRequired
        self.isRepeatable = isRepeatable
    }

    /// How the argument appears in a usage line, e.g. `<name>`, `[<name>]` or `<name>...`.
    var usage: String {
        let base = isRepeatable ? "<\(name)>..." : "<\(name)>"
        return isRequired ? base : "[\(base)]"
    }
}
