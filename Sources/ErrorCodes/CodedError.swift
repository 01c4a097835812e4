/// The one shape of this project's errors: a stable ``code`` to branch on and a ``message`` for
/// people.
///
/// A conforming type declares its `Code` (an ``ErrorCode``), a `code` and a `message`, plus the
/// context its callers act on (a field, a status); ``description`` comes from here. Messages name
/// fields, settings and ids, never secrets or personal data.
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    associatedtype Code: ErrorCode

    /// What kind of failure this is; compare against `Code`'s static members.
    var code: Code { get }
    /// What failed, in one sentence for people; may change between versions, unlike ``code``.
    var message: String { get }
}

extension CodedError {
    /// `code: message`, e.g. `invalid_key: not an Ed25519 key`.
    public var description: String { "\(code.rawValue): \(message)" }
}
