import Foundation

/// An opening of a journey's sealed fields to record: who, for what, which fields, why.
public struct PersonalDataDisclosure: Hashable, Sendable {
    /// Longest purpose accepted, in characters.
    public static let maximumPurposeLength = 200

    /// An API key's actor (`api-key:…`) or `cli`.
    public var actor: String
    /// The API key's id (lowercase UUID); nil for the CLI.
    public var keyID: String?
    /// The caller's tenant, when known.
    public var tenant: String?
    /// Names of the opened fields, e.g. `humanToken`, `documentNumber`, `name`.
    public var fields: [String]
    /// The caller's stated purpose, checked by ``checkedPurpose(_:)``.
    public var purpose: String
    /// What opened them (a route or a command).
    public var channel: String

    public init(actor: String, keyID: String?, tenant: String? = nil, fields: [String], purpose: String, channel: String) {
        self.actor = actor
        self.keyID = keyID
        self.tenant = tenant
        self.fields = fields
        self.purpose = purpose
        self.channel = channel
    }

    /// `self` for other fields.
    public func with(fields: [String]) -> PersonalDataDisclosure {
        var copy = self
        copy.fields = fields
        return copy
    }

    /// The trimmed purpose, or nil when it is absent, blank, longer than
    /// ``maximumPurposeLength`` or holds control characters.
    public static func checkedPurpose(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
            trimmed.count <= maximumPurposeLength,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return trimmed
    }
}
