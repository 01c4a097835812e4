import Cryptography
import Foundation
import HTTPServer
import JSONBytes
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

    /// How the person captures: `sdk` (default: the app's SDK Lite, a process per capture) or
    /// `link` (Unico's link, sent through `subject.notificationChannels`; the attempt lives as
    /// long as the link). Never inferred: channels without `link` are refused.
    var delivery: String?

    /// The journey's attempt budget: 1 to the deployment's retry policy `maximumAttempts`
    /// (default: that). Any JSON value, so that a wrong type is a 422 naming the field.
    var maximumAttempts: JSONValue?

    /// When the journey is abandoned (`deadlineReached`) if not completed: an RFC 3339 timestamp
    /// with offset, in the future, at most ``JourneyLimits/maximumDeadline(policy:)`` away (default: none).
    var deadline: JSONValue?

    /// The values of `createProcess`.
    static let createProcessValues = ["onTokenRequest", "now"]
    /// The values of `delivery`.
    static let deliveryValues = ["sdk", "link"]

    /// Checks `delivery` against the subject's notification channels; 422 naming the field.
    func checkDelivery() throws {
        let channels = !(subject?.notificationChannels ?? []).isEmpty
        switch delivery {
        case nil, "sdk":
            guard !channels else {
                throw Problem.validationFailed(
                    field: "subject.notificationChannels",
                    detail: "subject.notificationChannels are for link journeys: send \"delivery\": \"link\" "
                        + "(Unico then notifies the person), or leave them out for the SDK.")
            }
        case "link":
            guard channels else {
                throw Problem.validationFailed(
                    field: "subject.notificationChannels",
                    detail: "A link journey needs at least one of subject.notificationChannels: Unico sends the link through it.")
            }
        default:
            throw Problem.validationFailed(
                field: "delivery", detail: "delivery must be one of \(Self.deliveryValues.joined(separator: ", ")).")
        }
    }

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

    /// The journey's own limits within the deployment's `policy`, `deadline` checked against
    /// `now`; 422 naming `maximumAttempts` or `deadline` otherwise.
    func limits(policy: RetryPolicy, now: Date) throws -> (maximumAttempts: Int?, deadline: Date?) {
        var attempts: Int?, deadline: Date?
        if let value = maximumAttempts, value != .null {
            switch JourneyLimits.maximumAttempts(value.intValue, policy: policy) {
            case .success(let budget): attempts = budget
            case .failure(let issue): throw Problem.validationFailed(field: issue.field, detail: issue.message + ".")
            }
        }
        if let value = self.deadline, value != .null {
            switch JourneyLimits.deadline(value.stringValue, now: now, maximum: JourneyLimits.maximumDeadline(policy: policy)) {
            case .success(let date): deadline = date
            case .failure(let issue): throw Problem.validationFailed(field: issue.field, detail: issue.message + ".")
            }
        }
        return (attempts, deadline)
    }

    /// The domain's input, for ``StartJourneyInput/validated()``.
    var input: StartJourneyInput {
        StartJourneyInput(
            environment: environment, flow: flow, purpose: purpose,
            subject: subject.map {
                SubjectInput(
                    documentType: $0.documentType, documentNumber: $0.documentNumber, name: $0.name,
                    friendlyName: $0.friendlyName, phone: $0.phone, email: $0.email,
                    notificationChannels: $0.notificationChannels ?? [])
            },
            clientReference: clientReference)
    }
}
