import JourneyDomain

/// The body of `POST /v1/journeys`, decoded leniently so that validation names each bad field.
struct StartJourneyRequest: Decodable, Sendable {
    struct Subject: Decodable, Sendable {
        var documentType: String?
        var documentNumber: String?
        var name: String?
        var phone: String?
        var email: String?
        var friendlyName: String?
        var notificationChannels: [String]?
    }

    var subject: Subject?
    var environment: String?
    var flow: String?
    var purpose: String?
    var clientReference: String?

    /// The domain's input, for ``StartJourneyInput/validated()``.
    var input: StartJourneyInput {
        StartJourneyInput(
            environment: environment, flow: flow, purpose: purpose,
            subject: subject.map {
                SubjectInput(documentType: $0.documentType, documentNumber: $0.documentNumber, name: $0.name,
                             friendlyName: $0.friendlyName, phone: $0.phone, email: $0.email,
                             notificationChannels: $0.notificationChannels ?? [])
            },
            clientReference: clientReference)
    }
}
