/// Shapes of personal data in free text that enters the log for ever (`clientReference`, the
/// `Disclosure-Purpose`, erase and cancel reasons): the one detector every such field uses.
///
/// - ``cpf``: 11 digits, bare or grouped by single `.`, `-`, `/` or space ending in a 2-digit
///   group (`12345678909`, `123.456.789-09`, `123456789-09`).
/// - ``cnpj``: 14 digits the same way (`11222333000181`, `11.222.333/0001-81`).
/// - ``email``: `something@domain.tld` anywhere.
/// - ``longNumber`` (prose only): any run of 11 or more digits letting up to two of
///   `.-/ ()+` stand between them, such as a phone number `(11) 98765-4321`.
///
/// Identifiers (``Context/identifier``) are checked for the first three only, so order numbers
/// such as `ORD-20261205-143000` or a 13-digit reference still pass; prose
/// (``Context/prose``) for all four.
public enum PersonalDataShape: String, Hashable, Sendable, CaseIterable {
    case cpf
    case cnpj
    case email
    case longNumber = "long_number"

    /// What kind of text is checked.
    public enum Context: Sendable {
        /// A reference chosen by a program (e.g. `clientReference`).
        case identifier
        /// Words written by a person (reasons, purposes).
        case prose
    }

    /// The first shape of personal data found in `text`, or nil.
    public static func find(in text: String, context: Context) -> PersonalDataShape? {
        for number in groupedNumbers(text) {
            let digits = number.reduce(0, +)
            let checkDigitsLast = number.count == 1 || number.last == 2
            if digits == FieldRules.cpfLength && checkDigitsLast { return .cpf }
            if digits == FieldRules.cnpjLength && checkDigitsLast { return .cnpj }
        }
        if looksLikeEmail(text) { return .email }
        if context == .prose, longestDigitRun(text) >= FieldRules.cpfLength { return .longNumber }
        return nil
    }

    /// The issue naming `field` when `text` holds a shape of personal data; nil otherwise. The
    /// message never repeats the value.
    public static func issue(_ text: String, field: String, context: Context) -> FieldIssue? {
        guard let shape = find(in: text, context: context) else { return nil }
        return FieldIssue(
            field: field, code: .invalidValue,
            message: "\(field) must not hold personal data (it looks like \(shape.label)); it is recorded for ever")
    }

    /// How a message names the shape.
    public var label: String {
        switch self {
        case .cpf: "a CPF"
        case .cnpj: "a CNPJ"
        case .email: "an e-mail address"
        case .longNumber: "a document or phone number"
        }
    }

    /// Each maximal number of `text` as its digit groups' lengths: digits separated by one of
    /// `.`, `-`, `/` or a space (two separators in a row end the number).
    static func groupedNumbers(_ text: String) -> [[Int]] {
        var numbers: [[Int]] = []
        var groups: [Int] = []
        var current = 0
        var separated = false
        func close() {
            if current > 0 { groups.append(current) }
            if !groups.isEmpty { numbers.append(groups) }
            groups = []
            current = 0
            separated = false
        }
        for character in text {
            if character.isASCII, character.isNumber {
                current += 1
                separated = false
            } else if current > 0, !separated, ".-/ ".contains(character) {
                groups.append(current)
                current = 0
                separated = true
            } else {
                close()
            }
        }
        close()
        return numbers
    }

    /// Digits in the longest run of digits, letting up to two of `.`, `-`, `/`, `(`, `)`, `+` and
    /// spaces stand between them (`123.456.789-09` and `(11) 98765-4321` are 11).
    static func longestDigitRun(_ text: String) -> Int {
        var longest = 0, current = 0, punctuation = 0
        for character in text {
            if character.isASCII, character.isNumber {
                current += 1
                punctuation = 0
                longest = max(longest, current)
            } else if current > 0, punctuation < 2, ".-/ ()+".contains(character) {
                punctuation += 1
            } else {
                current = 0
                punctuation = 0
            }
        }
        return longest
    }

    /// Something@something.tld anywhere in the text.
    static func looksLikeEmail(_ text: String) -> Bool {
        let words = text.split(whereSeparator: { $0.isWhitespace || "<>()[],;:\"'".contains($0) })
        return words.contains { word in
            let parts = word.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { return false }
            let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
            return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty }
        }
    }
}
