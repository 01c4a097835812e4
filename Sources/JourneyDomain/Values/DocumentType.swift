/// Unico `person.duiType`, such as `DUI_TYPE_BR_CPF`.
public struct DocumentType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Brazilian CPF: 11 digits.
    public static let brCPF = DocumentType(rawValue: "DUI_TYPE_BR_CPF")

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
