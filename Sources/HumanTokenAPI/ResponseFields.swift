import Cryptography
import Foundation
import JSONBytes
import Timestamps

/// A JSON object from Unico, read member by member; what is not read stays in ``remaining``.
///
/// Process answers are read in either shape: fields inside a `process` object (Unico's
/// documented process answers) or at the top level; members of `process` win over top-level ones.
struct ResponseFields {
    private(set) var remaining: [String: JSONValue]
    private let what: String

    init(_ json: JSONValue, what: String) throws {
        guard let object = json.objectValue else {
            throw HumanTokenAPIError(.invalidResponse, "\(what) answered with something other than a JSON object")
        }
        self.remaining = object
        self.what = what
    }

    /// Reads a process answer, flat or wrapped in `process`.
    init(process json: JSONValue, what: String) throws {
        try self.init(json, what: what)
        if let wrapped = remaining.removeValue(forKey: "process") {
            guard let inner = wrapped.objectValue else {
                throw HumanTokenAPIError(
                    .invalidResponse, "\(what) answer has a process that is not an object",
                    field: "process")
            }
            remaining.merge(inner) { _, inner in inner }
        }
    }

    /// A member as received, without consuming it.
    func peek(_ name: String) -> JSONValue? { remaining[name] }

    /// A non-empty string member; throws `invalid_response` naming it when absent.
    mutating func requiredString(_ name: String) throws -> String {
        guard let value = remaining.removeValue(forKey: name)?.stringValue, !value.isEmpty else {
            throw HumanTokenAPIError(
                .invalidResponse, "\(what) answer has no \(name) (neither at the top level nor in process)", field: name)
        }
        return value
    }

    /// A string member if present and a string.
    mutating func optionalString(_ name: String) -> String? {
        remaining.removeValue(forKey: name)?.stringValue
    }

    /// An RFC 3339 timestamp member; absent or null is nil, anything unparsable throws.
    mutating func optionalDate(_ name: String) throws -> Date? {
        switch remaining.removeValue(forKey: name) {
        case nil, .null?: return nil
        case .string(let text)? where text.isEmpty: return nil
        case .string(let text)?:
            guard let date = RFC3339.date(from: text) else {
                throw HumanTokenAPIError(.invalidResponse, "\(what) answer has an unreadable \(name)", field: name)
            }
            return date
        default:
            throw HumanTokenAPIError(.invalidResponse, "\(what) answer has a non-string \(name)", field: name)
        }
    }
}
