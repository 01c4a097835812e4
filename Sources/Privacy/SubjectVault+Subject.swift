import JourneyDomain
import Postgres

extension SubjectVault {
    /// Seals every personal field of `subject` under its reference in `tenant` (nil: the default
    /// tenant), with one key lookup.
    public func seal(_ subject: ValidatedSubject, tenant: String? = nil) async throws -> SealedSubject {
        try await client.withConnection { try self.seal(subject, tenant: tenant, on: $0) }
    }

    /// Seals every personal field of `subject` on `connection`, under its reference in `tenant`.
    public func seal(_ subject: ValidatedSubject, tenant: String? = nil, on connection: PostgresConnection) throws
        -> SealedSubject
    {
        let reference = try referencer.reference(for: subject, tenant: tenant)
        let key = try dataKey(for: reference, creating: true, on: connection)
        func seal(_ value: String?, _ field: String) throws -> SealedField? {
            try value.map { try Self.seal($0, field: field, subject: reference, key: key) }
        }
        return SealedSubject(
            reference: reference,
            documentType: subject.documentType,
            documentNumber: try Self.seal(
                subject.documentNumber, field: PersonalDataField.documentNumber,
                subject: reference, key: key),
            name: try seal(subject.name, PersonalDataField.name),
            friendlyName: try seal(subject.friendlyName, PersonalDataField.friendlyName),
            phone: try seal(subject.phone, PersonalDataField.phone),
            email: try seal(subject.email, PersonalDataField.email),
            notificationChannels: subject.notificationChannels)
    }

    /// Opens every personal field of `subject`, with one key lookup.
    public func open(_ subject: SealedSubject) async throws -> ValidatedSubject {
        try await client.withConnection { try self.open(subject, on: $0) }
    }

    /// Opens every personal field of `subject` on `connection`.
    public func open(_ subject: SealedSubject, on connection: PostgresConnection) throws -> ValidatedSubject {
        let reference = subject.reference
        let fields: [(SealedField?, String)] = [
            (subject.documentNumber, PersonalDataField.documentNumber), (subject.name, PersonalDataField.name),
            (subject.friendlyName, PersonalDataField.friendlyName), (subject.phone, PersonalDataField.phone),
            (subject.email, PersonalDataField.email),
        ]
        for case (let sealed?, let field) in fields {
            try Self.checkKeyID(sealed, field: field, subject: reference)
        }
        let key = try dataKey(for: reference, creating: false, on: connection)
        func open(_ sealed: SealedField?, _ field: String) throws -> String? {
            try sealed.map { try FieldEnvelope.open($0.ciphertext, key: key, subject: reference, field: field) }
        }
        return ValidatedSubject(
            documentType: subject.documentType,
            documentNumber: try FieldEnvelope.open(
                subject.documentNumber.ciphertext, key: key, subject: reference,
                field: PersonalDataField.documentNumber),
            name: try open(subject.name, PersonalDataField.name),
            friendlyName: try open(subject.friendlyName, PersonalDataField.friendlyName),
            phone: try open(subject.phone, PersonalDataField.phone),
            email: try open(subject.email, PersonalDataField.email),
            notificationChannels: subject.notificationChannels)
    }
}
