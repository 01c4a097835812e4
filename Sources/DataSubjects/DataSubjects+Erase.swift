import Foundation
import JourneyDomain
import JourneyEngine
import Privacy

extension DataSubjects {
    /// Longest erasure reason accepted, in characters.
    public static let maximumReasonLength = 500
    /// The reason recorded when the caller gives none.
    public static let defaultReason = "data subject request"

    /// Erases the subject: wipes its data key (crypto-shredding), appends `SubjectErased` (who,
    /// when, why) to each of its journeys through the engine, abandoning active ones first, and
    /// drops stored idempotency answers of those journeys. Idempotent: a repeat finishes what an
    /// interrupted call left and reports `alreadyErased` when there was nothing left to do.
    ///
    /// `requestedBy` is an actor such as `api-key:…`, `cli` or a retention policy; `reason` must
    /// carry no personal data. `unknown_subject` when nothing was ever recorded for the reference
    /// (with `tenant`, an API caller's: nothing of that tenant).
    public func erase(
        _ subject: SubjectReference, requestedBy: String, reason: String?,
        tenant: String? = nil
    ) async throws -> SubjectErasureReport {
        let reason = try Self.checkedReason(reason)
        let (ids, status) = try await known(subject, tenant: tenant)
        // Recorded outside the database before the key is wiped, so that a restore to an earlier
        // point can erase the subject again (ops/RUNBOOK.md, "Back up and restore").
        try ledger?.append(subject: subject.rawValue, requestedBy: requestedBy, at: Date())
        var erasedAt = status.erasedAt
        var keyWasErased = erasedAt != nil
        if status == .live {
            let result = try await vault.erase(subject: subject)
            erasedAt = result.erasedAt
            keyWasErased = result.wasAlreadyErased
        }
        let erasure = SubjectErasure(
            requestedBy: requestedBy, reason: reason, erasedAt: erasedAt ?? journeys.dependencies.clock())
        var marked = 0
        var abandoned = 0
        for id in ids {
            let before = try await journeys.state(of: id)
            if try await journeys.recordSubjectErased(id, erasure: erasure, actor: requestedBy) {
                marked += 1
                if !before.status.isTerminal { abandoned += 1 }
            }
        }
        let purged = try await journeys.purgeStartOutcomes(of: ids)
        return SubjectErasureReport(
            subjectReference: subject.rawValue, erasedAt: erasure.erasedAt,
            alreadyErased: keyWasErased && marked == 0 && purged == 0, journeyIds: ids.map(\.rawValue),
            journeysMarked: marked, journeysAbandoned: abandoned, idempotencyAnswersPurged: purged)
    }

    /// The trimmed reason, the default when absent; `invalid_reason` when blank, too long or
    /// holding control characters; `personal_data` when shaped like personal data (``JourneyDomain/PersonalDataShape``).
    static func checkedReason(_ reason: String?) throws -> String {
        guard let reason else { return defaultReason }
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= maximumReasonLength,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw DataSubjectsError(
                .invalidReason,
                "reason must be 1 to \(maximumReasonLength) characters without control characters",
                field: "reason")
        }
        if let issue = PersonalDataShape.issue(trimmed, field: "reason", context: .prose) {
            throw DataSubjectsError(.personalData, issue.message, field: "reason")
        }
        return trimmed
    }
}
