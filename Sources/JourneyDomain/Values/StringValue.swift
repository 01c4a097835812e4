/// A value that is a string on the wire and in the log (ids, Unico's open enumerations).
///
/// Conforming types declare `rawValue` and `init(rawValue:)`; encoding as a bare JSON string,
/// `init(_:)` and `description` come from here.
public protocol StringValue: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension StringValue {
    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
