/// A boolean flag: present means `true`, e.g. `--json`.
public struct FlagSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `json` for `--json`.
    public var name: String
    /// One line of help.
    public var help: String

    public init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}
