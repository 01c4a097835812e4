import Audit
import Foundation
import JourneyDomain
import JourneyEngine
import Privacy

extension DataSubjects {
    /// Every journey of the subject with its state, timeline, disclosures, opened personal data
    /// and Human Token; sealed values of an erased subject appear as `erased` markers.
    ///
    /// Each journey whose fields it opens gets a `PersonalDataDisclosed` (`disclosure` with the
    /// opened field names) before the export is returned, and lists it among its disclosures.
    /// `unknown_subject` when nothing was ever recorded for the reference (with `tenant`, an API
    /// caller's: nothing of that tenant).
    public func export(
        _ subject: SubjectReference, tenant: String? = nil,
        disclosure: PersonalDataDisclosure
    ) async throws -> SubjectExport {
        let (ids, status) = try await known(subject, tenant: tenant)
        var journeys: [SubjectExport.Journey] = []
        for id in ids {
            let timeline = try await JourneyTimeline.load(id, asOf: nil, events: self.journeys.events)
            var journey = try await journey(timeline)
            let opened = journey.openedFields
            if !opened.isEmpty {
                let recorded = try await self.journeys.recordDisclosure(id, disclosure.with(fields: opened))
                journey.disclosures.append(
                    Disclosure(
                        recorded.event, recordedAt: recorded.event.occurredAt,
                        version: recorded.version))
            }
            journeys.append(journey)
        }
        return SubjectExport(
            subjectReference: subject.rawValue, exportedAt: self.journeys.dependencies.clock(),
            erased: status.erasedAt != nil, erasedAt: status.erasedAt, journeys: journeys)
    }

    private func journey(_ timeline: JourneyTimeline) async throws -> SubjectExport.Journey {
        let state = timeline.state
        var personal = SubjectExport.PersonalData(erased: true)
        if let sealed = state.subject, let opened = try await openOrErased({ try await vault.open(sealed) }) {
            personal = SubjectExport.PersonalData(
                erased: false, documentType: opened.documentType.rawValue, documentNumber: opened.documentNumber,
                name: opened.name, friendlyName: opened.friendlyName, phone: opened.phone, email: opened.email,
                notificationChannels: opened.notificationChannels.map(\.rawValue))
        }
        var result: SubjectExport.Result?
        if state.outcome != nil || state.humanToken != nil {
            var token: String?
            if let sealed = state.humanToken, let subject = state.subject {
                token = try await openOrErased {
                    try await vault.open(sealed, field: PersonalDataField.humanToken, subject: subject.reference)
                }
            }
            result = SubjectExport.Result(
                outcome: state.outcome?.rawValue, completedAt: state.completedAt,
                humanToken: token, humanTokenErased: state.humanToken != nil && token == nil)
        }
        return SubjectExport.Journey(
            journeyId: timeline.journeyID.rawValue, state: StateSummary(state),
            personalData: personal, result: result, disclosures: timeline.disclosures,
            timeline: timeline.entries)
    }

    /// The opened value, or nil when the subject was erased.
    private func openOrErased<T>(_ open: () async throws -> T) async throws -> T? {
        do {
            return try await open()
        } catch let error as PrivacyError where error.code == .subjectErased {
            return nil
        }
    }
}
