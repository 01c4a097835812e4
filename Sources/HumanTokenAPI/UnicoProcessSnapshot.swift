import Cryptography
import Foundation
import JSONBytes

/// A process as Get Process reports it at one moment.
///
/// Unknown members are kept in ``extras``. The Human Token is left out of the description.
public struct UnicoProcessSnapshot: Sendable, Hashable, CustomStringConvertible {
    /// Unico's process id.
    public let id: String
    /// Where the process stands.
    public let state: UnicoProcessState
    /// How it ended; ``UnicoProcessResult/unspecified`` while it runs (or when Unico omits it).
    public let result: UnicoProcessResult
    /// `data.humanToken.value`: present when the process finished with an OK result.
    public let humanToken: String?
    /// When the process was created.
    public let createdAt: Date?
    /// When the process finished.
    public let finishedAt: Date?
    /// When the process expires.
    public let expiresAt: Date?
    /// Any other members of the answer, kept as JSON (`data` included, as received).
    public let extras: [String: JSONValue]

    public init(
        id: String, state: UnicoProcessState, result: UnicoProcessResult = .unspecified, humanToken: String? = nil,
        createdAt: Date? = nil, finishedAt: Date? = nil, expiresAt: Date? = nil, extras: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.state = state
        self.result = result
        self.humanToken = humanToken
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.expiresAt = expiresAt
        self.extras = extras
    }

    /// Reads the answer, flat or wrapped in `process`, tolerating unknown members; throws
    /// `invalid_response` naming a bad one.
    init(json: JSONValue) throws {
        var object = try ResponseFields(process: json, what: "Get Process")
        id = try object.requiredString("id")
        state = UnicoProcessState(rawValue: try object.requiredString("state"))
        result = object.optionalString("result").map(UnicoProcessResult.init(rawValue:)) ?? .unspecified
        createdAt = try object.optionalDate("createdAt")
        finishedAt = try object.optionalDate("finishedAt")
        expiresAt = try object.optionalDate("expiresAt")
        humanToken = object.peek("data")?["humanToken"]?["value"]?.stringValue
        extras = object.remaining
    }

    public var description: String {
        "UnicoProcessSnapshot(id: \(id), state: \(state), result: \(result), humanToken: "
            + (humanToken == nil ? "nil" : "<redacted>") + ")"
    }
}
