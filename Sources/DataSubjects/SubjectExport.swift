import Audit
import Foundation
import Privacy
import Timestamps

/// Everything held about one subject (LGPD Art. 18 access and portability): each journey with
/// its state, timeline, opened personal data and Human Token result, or `erased` markers.
public struct SubjectExport: Sendable, Encodable {
    /// Personal data as the journey sealed it, opened; or only `erased: true` once the key is gone.
    public struct PersonalData: Sendable, Encodable, Equatable {
        public var erased: Bool
        public var documentType: String?
        public var documentNumber: String?
        public var name: String?
        public var friendlyName: String?
        public var phone: String?
        public var email: String?
        public var notificationChannels: [String]?
    }

    /// The journey's result: outcome and the opened Human Token (`erased` once the key is gone).
    public struct Result: Sendable, Encodable, Equatable {
        public var outcome: String?
        public var completedAt: Date?
        public var humanToken: String?
        public var humanTokenErased: Bool
    }

    public struct Journey: Sendable, Encodable {
        public var journeyId: String
        public var state: StateSummary
        public var personalData: PersonalData
        public var result: Result?
        /// Every recorded opening of the journey's sealed fields (who, when, fields, purpose),
        /// this export's own included.
        public var disclosures: [Disclosure]
        public var timeline: [JourneyTimeline.Entry]

        /// Names of the sealed fields this export opened (never the values).
        var openedFields: [String] {
            var names: [String] = []
            if !personalData.erased {
                let fields: [(String?, String)] = [
                    (personalData.documentNumber, PersonalDataField.documentNumber), (personalData.name, PersonalDataField.name),
                    (personalData.friendlyName, PersonalDataField.friendlyName), (personalData.phone, PersonalDataField.phone),
                    (personalData.email, PersonalDataField.email),
                ]
                names = fields.compactMap { $0.0 == nil ? nil : $0.1 }
            }
            if result?.humanToken != nil { names.append(PersonalDataField.humanToken) }
            return names
        }
    }

    public var format = "journeys.subject-export.v1"
    public var subjectReference: String
    public var exportedAt: Date
    public var erased: Bool
    public var erasedAt: Date?
    public var journeys: [Journey]

    /// Sorted-key JSON with RFC 3339 dates.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return try encoder.encode(self)
    }
}
