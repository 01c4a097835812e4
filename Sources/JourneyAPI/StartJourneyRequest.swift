import HTTPServer
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
    /// When attempt 1's Unico process is made: `onTokenRequest` (default: when the app asks for
    /// a token, right before the capture) or `now` (with the start; its answer carries the
    /// `webAppToken`). Link journeys make theirs at start either way.
    var createProcess: String?

    /// The values of `createProcess`.
    static let createProcessValues = ["onTokenRequest", "now"]

    /// Whether the start makes attempt 1's process; 422 naming `createProcess` for another value.
    func processAtStart() throws -> Bool {
        switch createProcess {
        case nil, "onTokenRequest": return false
        case "now": return true
        default:
            throw Problem.validationFailed(
                field: "createProcess",
                detail: "createProcess must be one of \(Self.createProcessValues.joined(separator: ", ")).")
        }
    }

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
