/// A subject that passed validation; still plaintext, so redacted in descriptions. Seal it before use.
public struct ValidatedSubject: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public var documentType: DocumentType
    /// Digits only.
    public var documentNumber: String
    public var name: String?
    public var friendlyName: String?
    /// Digits with an optional leading `+`.
    public var phone: String?
    public var email: String?
    public var notificationChannels: [NotificationChannel]

    public init(
        documentType: DocumentType,
        documentNumber: String,
        name: String? = nil,
        friendlyName: String? = nil,
        phone: String? = nil,
        email: String? = nil,
        notificationChannels: [NotificationChannel] = []
    ) {
        self.documentType = documentType
        self.documentNumber = documentNumber
        self.name = name
        self.friendlyName = friendlyName
        self.phone = phone
        self.email = email
        self.notificationChannels = notificationChannels
    }

    /// Seals every personal field with `seal` (supplied by the encryption module) under `reference`.
    public func sealed(
        reference: SubjectReference,
        seal: (String) throws -> SealedField
    ) rethrows -> SealedSubject {
        SealedSubject(
            reference: reference,
            documentType: documentType,
            documentNumber: try seal(documentNumber),
            name: try name.map(seal),
            friendlyName: try friendlyName.map(seal),
            phone: try phone.map(seal),
            email: try email.map(seal),
            notificationChannels: notificationChannels
        )
    }

    public var description: String { "ValidatedSubject(\(documentType), redacted)" }
    public var debugDescription: String { description }
}
