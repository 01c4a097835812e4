/// An option that takes a value: `--name value` or `--name=value`.
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `stream` for `--stream`.
    public var name: String
    /// The placeholder shown in help, e.g. `S` in `--stream <S>`.
    public var valueName: String
    /// One line of help.
    public var help: String
    /// The value used when the option is absent; shown in help. `nil` for none.
    public var defaultValue: String?
    /// Whether parsing fails when the option is absent.
    public var isRequired: Bool
    /// Whether the option may be given more than once; read it with `strings(_:)`.
    public var isRepeatable: Bool

    public init(
        _ name: String,
        valueName: String,
        help: String,
        defaultValue: String? = nil,
        isRequired: Bool = false,
        isRepeatable: Bool = false
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.isRepeatable = isRepeatable
    }

    /// An option that must be given.
    public static func required(_ name: String, valueName: String, help: String) -> OptionSpec {
        OptionSpec(name, valueName: valueName, help: help, isRequired: true)
    }

    /// An option that may be omitted, with an optional default shown in help.
    public static func optional(
        _ name: String, valueName: String, help: String, default defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(name, valueName: valueName, help: help, defaultValue: defaultValue)
    }

    /// An option that may be given any number of times, including none.
    public static func repeatable(_ name: String, valueName: String, help: String) -> OptionSpec {
        OptionSpec(name, valueName: valueName, help: help, isRepeatable: true)
    }
}
