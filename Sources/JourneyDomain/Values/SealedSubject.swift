/// The subject of a journey as it enters the log: a pseudonymous reference and sealed personal fields.
public struct SealedSubject: Hashable, Sendable, Codable {
    public var reference: SubjectReference
    /// Kind of document; not personal data by itself.
    public var documentType: DocumentType
    public var documentNumber: SealedField
    public var name: SealedField?
    /// Name Unico shows to the subject (`person.friendlyName`).
    public var friendlyName: SealedField?
    public var phone: SealedField?
    public var email: SealedField?
    public var notificationChannels: [NotificationChannel]

    public init(
        reference: SubjectReference,
        documentType: DocumentType,
        documentNumber: SealedField,
        name: SealedField? = nil,
        friendlyName: SealedField? = nil,
        phone: SealedField? = nil,
        email: SealedField? = nil,
        notificationChannels: [NotificationChannel] = []
    ) {
        self.reference = reference
        self.documentType = documentType
        self.documentNumber = documentNumber
        self.name = name
        self.friendlyName = friendlyName
        self.phone = phone
        self.email = email
        self.notificationChannels = notificationChannels
    }
}
