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
    /// characters, no control characters, and nothing shaped like personal data
    /// (``PersonalDataShape``, as prose: a CPF, CNPJ, phone number or e-mail address), since it enters the log
    /// unsealed and is sent in the `journey.abandoned` webhook.
    public static func checkedReason(_ text: String?, field: String = "reason") -> Result<String, FieldIssue> {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return .failure(FieldIssue(field: field, code: .required, message: "\(field) is required"))
        }
        guard trimmed.count <= maximumReasonLength else {
            return .failure(
                FieldIssue(
                    field: field, code: .tooLong,
                    message: "\(field) must be at most \(maximumReasonLength) characters"))
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(FieldIssue(field: field, code: .invalidFormat, message: "\(field) must not hold control characters"))
        }
        if let issue = PersonalDataShape.issue(trimmed, field: field, context: .prose) { return .failure(issue) }
        return .success(trimmed)
    }
}
