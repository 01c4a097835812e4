import Cryptography
import JSONBytes

/// What Create Process answers: the process id and the three ways into the journey.
///
/// Only ``webAppToken`` goes to the SDK; it lives 5 minutes, the process (and ``link``) days.
/// Description and reflection show the id but none of the tokens.
public struct CreatedProcess: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Unico's process id, for Get Process.
    public let id: String
    /// The process token; the SDK rejects it (`73304`).
    public let token: String
    /// The web journey link.
    public let link: String
    /// The short-lived token the SDK Lite opens the capture with.
    public let webAppToken: String
    /// Any other members of the answer, kept as JSON.
    public let extras: [String: JSONValue]

    public init(id: String, token: String, link: String, webAppToken: String, extras: [String: JSONValue] = [:]) {
        self.id = id
        self.token = token
        self.link = link
        self.webAppToken = webAppToken
        self.extras = extras
    }

    /// Reads the answer, flat or wrapped in `process`, tolerating unknown members; throws
    /// `invalid_response` naming a missing one.
    init(json: JSONValue) throws {
        var object = try ResponseFields(process: json, what: "Create Process")
        id = try object.requiredString("id")
        token = try object.requiredString("token")
        link = try object.requiredString("link")
        webAppToken = try object.requiredString("webAppToken")
        extras = object.remaining
    }

    public var description: String { "CreatedProcess(id: \(id), <tokens redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
