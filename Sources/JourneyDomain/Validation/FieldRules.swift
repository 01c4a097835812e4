/// Field checks for start input, per Unico's Create Process contract; each failure names its field.
///
/// Lengths count Unicode scalars (code points), the stricter of the usual counts for accented names.
public enum FieldRules {
    /// `person.friendlyName` limit: 50 characters (Unico).
    public static let friendlyNameMaximumLength = 50
    /// Limit on `subject.name`: 200 characters (ours; Unico is silent).
    public static let nameMaximumLength = 200
    /// Limit on `flow`: 64 characters (ours; Unico is silent).
    public static let flowMaximumLength = 64
    /// Limit on `clientReference`: 128 characters (ours).
    public static let clientReferenceMaximumLength = 128
    /// Limit on `subject.email`: 254 characters (RFC 5321 path limit).
    public static let emailMaximumLength = 254
    /// Limit on `subject.documentNumber` for types other than CPF: 32 digits (ours).
    public static let documentNumberMaximumLength = 32
    /// Digits in a CPF.
    public static let cpfLength = 11
    /// Digits in a CNPJ.
    public static let cnpjLength = 14
    /// Digits in a phone number (E.164 allows at most 15).
    public static let phoneDigits = 10...15

    public static func environment(_ value: String?, field: String = "environment") -> Result<Environment, FieldIssue> {
        guard let value, !value.isEmpty else { return .failure(required(field)) }
        guard let environment = Environment(rawValue: value) else {
            return .failure(FieldIssue(field: field, code: .invalidValue, message: "\(field) must be UAT or PROD"))
        }
        return .success(environment)
    }

    public static func purpose(_ value: String?, field: String = "purpose") -> Result<Purpose, FieldIssue> {
        guard let value, !value.isEmpty else { return .failure(required(field)) }
        guard let purpose = Purpose(rawValue: value) else {
            let allowed = Purpose.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(FieldIssue(field: field, code: .invalidValue, message: "\(field) must be one of \(allowed)"))
        }
        return .success(purpose)
    }

    public static func flow(_ value: String?, field: String = "flow") -> Result<Flow, FieldIssue> {
        guard let value, !value.isEmpty else { return .failure(required(field)) }
        if let issue = tooLong(value, field, maximum: flowMaximumLength) { return .failure(issue) }
        guard value.unicodeScalars.allSatisfy({ isASCIIAlphanumeric($0) || "._-".unicodeScalars.contains($0) }) else {
            return .failure(
                FieldIssue(
                    field: field,
                    code: .invalidFormat,
                    message: "\(field) must contain only letters, digits, '.', '_' or '-'"
                )
            )
        }
        return .success(Flow(value))
    }

    public static func documentType(_ value: String?, field: String = "subject.documentType") -> Result<DocumentType, FieldIssue>
    {
        guard let value, !value.isEmpty else { return .failure(required(field)) }
        // DUI_TYPE_<country>_<name>, as Unico validates it (e.g. DUI_TYPE_BR_CPF).
        let prefix = "DUI_TYPE_"
        let rest = Array(value.dropFirst(prefix.count).unicodeScalars)
        let upper: (Unicode.Scalar) -> Bool = { ("A"..."Z").contains($0) }
        guard value.hasPrefix(prefix), rest.count >= 4, upper(rest[0]), upper(rest[1]), rest[2] == "_",
            rest[3...].allSatisfy({ upper($0) || ("0"..."9").contains($0) || $0 == "_" })
        else {
            return .failure(
                FieldIssue(field: field, code: .invalidFormat, message: "\(field) must be a DUI type such as DUI_TYPE_BR_CPF")
            )
        }
        return .success(DocumentType(rawValue: value))
    }

    public static func documentNumber(
        _ value: String?,
        type: DocumentType?,
        field: String = "subject.documentNumber"
    ) -> Result<String, FieldIssue> {
        guard let value, !value.isEmpty else { return .failure(required(field)) }
        guard value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            return .failure(FieldIssue(field: field, code: .invalidFormat, message: "\(field) must contain digits only"))
        }
        if type == .brCPF, value.count != cpfLength {
            return .failure(
                FieldIssue(
                    field: field,
                    code: .invalidFormat,
                    message: "\(field) must have \(cpfLength) digits for \(DocumentType.brCPF)"
                )
            )
        }
        if type == .brCNPJ, value.count != cnpjLength {
            return .failure(
                FieldIssue(
                    field: field,
                    code: .invalidFormat,
                    message: "\(field) must have \(cnpjLength) digits for \(DocumentType.brCNPJ)"
                )
            )
        }
        if let issue = tooLong(value, field, maximum: documentNumberMaximumLength) { return .failure(issue) }
        if type == .brCPF && !CheckDigits.isValidCPF(value) || type == .brCNPJ && !CheckDigits.isValidCNPJ(value) {
            return .failure(
                FieldIssue(field: field, code: .invalidValue, message: "\(field) must have valid check digits")
            )
        }
        return .success(value)
    }

    /// A name-like text: not blank, no control characters, at most `maximum` characters; trimmed.
    public static func text(_ value: String, field: String, maximum: Int) -> Result<String, FieldIssue> {
        let trimmed = trimmingSpaces(value)
        guard !trimmed.isEmpty else {
            return .failure(FieldIssue(field: field, code: .invalidValue, message: "\(field) must not be blank"))
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(
                FieldIssue(field: field, code: .invalidFormat, message: "\(field) must not contain control characters")
            )
        }
        if let issue = tooLong(trimmed, field, maximum: maximum) { return .failure(issue) }
        return .success(trimmed)
    }

    public static func phone(_ value: String, field: String = "subject.phone") -> Result<String, FieldIssue> {
        let digits = value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        guard phoneDigits.contains(digits.count), digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            return .failure(
                FieldIssue(
                    field: field,
                    code: .invalidFormat,
                    message: "\(field) must be \(phoneDigits.lowerBound) to \(phoneDigits.upperBound) digits, "
                        + "optionally after a leading '+'"
                )
            )
        }
        return .success(value)
    }

    public static func email(_ value: String, field: String = "subject.email") -> Result<String, FieldIssue> {
        if let issue = tooLong(value, field, maximum: emailMaximumLength) { return .failure(issue) }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        let labels = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
        let valid =
            parts.count == 2 && !parts[0].isEmpty && labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
            && !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        guard valid else {
            return .failure(
                FieldIssue(
                    field: field, code: .invalidFormat, message: "\(field) must be an e-mail address like name@example.com")
            )
        }
        return .success(value)
    }

    /// Printable ASCII without spaces, at most ``clientReferenceMaximumLength``, nothing shaped like a
    /// CPF, CNPJ or e-mail address (``PersonalDataShape``, as an identifier): it is recorded for ever.
    public static func clientReference(_ value: String, field: String = "clientReference") -> Result<String, FieldIssue> {
        guard !value.isEmpty else {
            return .failure(FieldIssue(field: field, code: .invalidValue, message: "\(field) must not be empty"))
        }
        if let issue = tooLong(value, field, maximum: clientReferenceMaximumLength) { return .failure(issue) }
        guard value.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return .failure(
                FieldIssue(
                    field: field,
                    code: .invalidFormat,
                    message: "\(field) must contain only printable ASCII characters without spaces"
                )
            )
        }
        if let issue = PersonalDataShape.issue(value, field: field, context: .identifier) { return .failure(issue) }
        return .success(value)
    }

    static func required(_ field: String) -> FieldIssue {
        FieldIssue(field: field, code: .required, message: "\(field) is required")
    }

    static func tooLong(_ value: String, _ field: String, maximum: Int) -> FieldIssue? {
        guard value.unicodeScalars.count > maximum else { return nil }
        return FieldIssue(field: field, code: .tooLong, message: "\(field) must be at most \(maximum) characters")
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func trimmingSpaces(_ value: String) -> String {
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
