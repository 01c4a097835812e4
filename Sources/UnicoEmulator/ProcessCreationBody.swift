import Cryptography
import Foundation
import JSONBytes

/// A validated Create Process body.
///
/// Validation follows the documented contract: `callbackUri`, `flow`, `purpose` and `person`
/// with `duiType`/`duiValue` are required; unknown members are ignored. Every refusal is a 400
/// with code 3 whose message starts with the field path. Beyond the documented rules the
/// emulator also checks: `duiType` looks like `DUI_TYPE_<CC>_<NAME>`, a CPF has 11 digits,
/// `phone` is 8 to 15 digits with an optional `+`, `email` has one `@` and a dotted domain,
/// a WhatsApp or SMS notification needs `phone` and an e-mail one needs `email`,
/// `clientReference` is at most 256 characters, and `expiresIn` lies between 1 s and 30 days.
struct ProcessCreationBody: Sendable, Equatable {
    static let purposes: Set<String> = ["creditprocess", "biometryonboarding", "carpurchase", "ageverification"]
    static let notificationChannels: Set<String> = [
        "NOTIFICATION_CHANNEL_WHATSAPP", "NOTIFICATION_CHANNEL_SMS", "NOTIFICATION_CHANNEL_EMAIL",
    ]
    static let maximumFriendlyName = 50
    static let maximumClientReference = 256
    static let maximumExpiresIn: TimeInterval = 30 * 24 * 3600

    var callbackUri: String
    var flow: String
    var purpose: String
    var duiType: String
    var clientReference: String?
    /// Requested process lifetime in seconds, if given.
    var expiresIn: TimeInterval?
    /// `person.notifications[].notificationChannel`: how Unico tells the person about the link.
    var notificationChannels: [String] = []

    static func parse(_ body: Data) throws(APIError) -> ProcessCreationBody {
        guard case .object(let root)? = JSONValue.parse(body) else {
            throw .invalidArgument("body", "must be a JSON object")
        }
        let callbackUri = try requiredString(root, "callbackUri")
        guard callbackUri.hasPrefix("/") || URL(string: callbackUri)?.scheme != nil else {
            throw .invalidArgument("callbackUri", "must be \"/\" or an absolute URI")
        }
        let flow = try requiredString(root, "flow")
        let purpose = try requiredString(root, "purpose")
        guard purposes.contains(purpose) else {
            throw .invalidArgument("purpose", "must be one of \(purposes.sorted().joined(separator: ", "))")
        }
        guard let personValue = root["person"], personValue != .null else {
            throw .invalidArgument("person", "is required")
        }
        guard case .object(let person) = personValue else { throw .invalidArgument("person", "must be an object") }
        let (duiType, channels) = try validatePerson(person)

        let clientReference = try optionalString(root, "clientReference")
        if let clientReference, clientReference.count > maximumClientReference {
            throw .invalidArgument("clientReference", "must be at most \(maximumClientReference) characters")
        }
        let expiresIn = try optionalString(root, "expiresIn").map { (text) throws(APIError) in try parseDuration(text) }
        return ProcessCreationBody(
            callbackUri: callbackUri, flow: flow, purpose: purpose, duiType: duiType,
            clientReference: clientReference, expiresIn: expiresIn, notificationChannels: channels)
    }

    /// The document type and the notification channels asked for.
    private static func validatePerson(_ person: [String: JSONValue]) throws(APIError) -> (String, [String]) {
        let duiType = try requiredString(person, "duiType", prefix: "person.")
        guard FieldShapes.isDUIType(duiType) else {
            throw .invalidArgument("person.duiType", "must be a DUI type such as DUI_TYPE_BR_CPF")
        }
        let duiValue = try requiredString(person, "duiValue", prefix: "person.")
        guard duiValue.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalidArgument("person.duiValue", "must contain digits only")
        }
        if duiType == "DUI_TYPE_BR_CPF", duiValue.count != 11 {
            throw .invalidArgument("person.duiValue", "a CPF has 11 digits")
        }
        if let name = try optionalString(person, "friendlyName", prefix: "person."), name.count > maximumFriendlyName {
            throw .invalidArgument("person.friendlyName", "must be at most \(maximumFriendlyName) characters")
        }
        let phone = try optionalString(person, "phone", prefix: "person.")
        if let phone, !FieldShapes.isPhone(phone) {
            throw .invalidArgument("person.phone", "must be 8 to 15 digits with an optional leading +")
        }
        let email = try optionalString(person, "email", prefix: "person.")
        if let email, email.wholeMatch(of: /[^@\s]+@[^@\s]+\.[^@\s]+/) == nil {
            throw .invalidArgument("person.email", "must be an e-mail address")
        }
        guard let notifications = person["notifications"], notifications != .null else { return (duiType, []) }
        guard case .array(let items) = notifications else {
            throw .invalidArgument("person.notifications", "must be an array")
        }
        for (index, item) in items.enumerated() {
            let path = "person.notifications[\(index)]."
            guard case .object(let notification) = item else {
                throw .invalidArgument("person.notifications[\(index)]", "must be an object")
            }
            let channel = try requiredString(notification, "notificationChannel", prefix: path)
            guard notificationChannels.contains(channel) else {
                throw .invalidArgument(
                    path + "notificationChannel",
                    "must be one of \(notificationChannels.sorted().joined(separator: ", "))")
            }
            if channel == "NOTIFICATION_CHANNEL_EMAIL", email == nil {
                throw .invalidArgument("person.email", "is required for NOTIFICATION_CHANNEL_EMAIL")
            }
            if channel != "NOTIFICATION_CHANNEL_EMAIL", phone == nil {
                throw .invalidArgument("person.phone", "is required for \(channel)")
            }
        }
        return (
            duiType,
            items.compactMap { item in
                guard case .object(let notification) = item, case .string(let channel)? = notification["notificationChannel"]
                else {
                    return nil
                }
                return channel
            }
        )
    }

    /// Parses a protobuf-JSON duration such as `"3600s"` or `"1.5s"`.
    static func parseDuration(_ text: String) throws(APIError) -> TimeInterval {
        guard FieldShapes.isDuration(text), let seconds = Double(text.dropLast()) else {
            throw .invalidArgument("expiresIn", "must be a duration in seconds such as \"3600s\"")
        }
        guard seconds >= 1, seconds <= maximumExpiresIn else {
            throw .invalidArgument("expiresIn", "must be between 1s and \(Int(maximumExpiresIn))s")
        }
        return seconds
    }

    private static func requiredString(_ object: [String: JSONValue], _ name: String, prefix: String = "") throws(APIError)
        -> String
    {
        guard let value = try optionalString(object, name, prefix: prefix) else {
            throw .invalidArgument(prefix + name, "is required")
        }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidArgument(prefix + name, "must not be empty")
        }
        return value
    }

    private static func optionalString(_ object: [String: JSONValue], _ name: String, prefix: String = "") throws(APIError)
        -> String?
    {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .invalidArgument(prefix + name, "must be a string")
        }
    }
}
