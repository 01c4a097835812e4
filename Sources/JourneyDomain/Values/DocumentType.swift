/// Unico `person.duiType`, such as `DUI_TYPE_BR_CPF`.
public struct DocumentType: StringValue {
    public let rawValue: String

    /// Brazilian CPF: 11 digits.
    public static let brCPF = DocumentType(rawValue: "DUI_TYPE_BR_CPF")
    /// Brazilian CNPJ: 14 digits.
    public static let brCNPJ = DocumentType(rawValue: "DUI_TYPE_BR_CNPJ")

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
