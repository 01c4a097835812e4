import Foundation
import JourneyDomain
import JourneyEngine
import Postgres
import Privacy

/// The data-subject requests of LGPD Art. 18 / GDPR: find a subject by document, export
/// everything held about them, and erase them (crypto-shredding plus a `SubjectErased` mark on
/// each of their journeys).
///
/// Erasure is one use case with the caller's reason, so a retention worker can call it with its
/// policy as the reason. Document numbers are never stored or logged here.
public struct DataSubjects: Sendable {
    public let journeys: Journeys
    /// Where each erasure is recorded before it starts (outside the database, for restores);
    /// `JourneyApp` passes the one of `JOURNEYS_ERASURE_LEDGER`. Default none.
    public let ledger: ErasureLedger?

    public init(journeys: Journeys, ledger: ErasureLedger? = nil) {
        self.journeys = journeys
        self.ledger = ledger
    }

    var database: PostgresClient { journeys.database }
    var vault: SubjectVault { journeys.dependencies.vault }

    /// The subject holding the document in `tenant` (nil: the default tenant), whether anything is
    /// held about them, and their journeys. With `confined`, only the tenant's journeys count.
    public func find(
        documentType: DocumentType, documentNumber: String, tenant: String? = nil,
        confined: Bool = false
    ) async throws -> SubjectFinding {
        let reference = try vault.referencer.reference(
            documentType: documentType, documentNumber: documentNumber,
            tenant: tenant)
        let ids = try await journeyIDs(of: reference, tenant: confined ? tenant ?? Self.defaultTenant : nil)
        let status = try await vault.keyStatus(subject: reference)
        return SubjectFinding(
            reference: reference, known: (!confined && status != .unknown) || !ids.isEmpty,
            erasedAt: status.erasedAt, journeyIds: ids.map(\.rawValue))
    }

    /// The tenant of journeys whose start names none.
    static let defaultTenant = JourneyStarted.defaultTenant

    /// Ids of the subject's journeys, oldest first, read from the log; only `tenant`'s when given.
    public func journeyIDs(of subject: SubjectReference, tenant: String? = nil) async throws -> [JourneyID] {
        try await journeys.journeyIDs(of: subject, tenant: tenant)
    }

    /// The subject's journeys and key status; `unknown_subject` naming the reference when neither
    /// exists. With `tenant` (an API caller's), a subject without journeys of that tenant is
    /// unknown: another tenant's subject answers as one that does not exist.
    func known(_ subject: SubjectReference, tenant: String? = nil) async throws
        -> (journeys: [JourneyID], status: SubjectKeyStatus)
    {
        let ids = try await journeyIDs(of: subject, tenant: tenant)
        let status = try await vault.keyStatus(subject: subject)
        guard !ids.isEmpty || (tenant == nil && status != .unknown) else {
            throw DataSubjectsError(.unknownSubject, "no data is held for subject \(subject.rawValue)", field: "reference")
        }
        return (ids, status)
    }
}

extension SubjectKeyStatus {
    var erasedAt: Date? {
        if case .erased(let at) = self { return at }
        return nil
    }
}
