import Foundation

/// A cancellation to record: why (checked, no personal data) and who asked.
public struct JourneyCancellation: Hashable, Sendable {
    /// Longest reason accepted, in characters.
    public static let maximumReasonLength = 200

    public var reason: String
    public var actor: String

    /// `reason` as given; check it first with ``checkedReason(_:field:)``.
    public init(reason: String, actor: String) {
        self.reason = reason
        self.actor = actor
    }

    /// The trimmed reason, or the issue naming `field`: required, 1 to ``maximumReasonLength``
    /// characters, no control characters, and nothing shaped like personal data (a run of 11 or
    /// more digits, as a CPF, CNPJ or phone number; an e-mail address), since it enters the log
    /// unsealed and is sent in the `journey.abandoned` webhook.
    public static func checkedReason(_ text: String?, field: String = "reason") -> Result<String, FieldIssue> {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return .failure(FieldIssue(field: field, code: .required, message: "\(field) is required"))
        }
        guard trimmed.count <= maximumReasonLength else {
            return .failure(FieldIssue(field: field, code: .tooLong,
                                       message: "\(field) must be at most \(maximumReasonLength) characters"))
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(FieldIssue(field: field, code: .invalidFormat, message: "\(field) must not hold control characters"))
        }
        if longestDigitRun(trimmed) >= FieldRules.cpfLength || looksLikeEmail(trimmed) {
            return .failure(FieldIssue(field: field, code: .invalidValue,
                                       message: "\(field) must not hold personal data (a document or phone number, an e-mail address)"))
        }
        return .success(trimmed)
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
