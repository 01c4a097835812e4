import EventStore
import Foundation

/// A start's `Idempotency-Key` as the caller presented it, scoped to the API key that sent it:
/// the same key and body answer the same journey, never a second one.
public struct IdempotencyKey: Sendable, Hashable {
    /// Longest key accepted.
    public static let maximumLength = 255

    /// The API key that sent the request; keys are scoped per API key.
    public var scope: UUID
    public var key: String
    /// SHA-256 of the request body; a replay with another body is refused.
    public var requestHash: Data
    /// The request's own id: the key's owner while this request holds it.
    public var owner: UUID

    public init(scope: UUID, key: String, requestHash: Data, owner: UUID = UUID.random()) {
        self.scope = scope
        self.key = key
        self.requestHash = requestHash
        self.owner = owner
    }

    /// True for 1 to ``maximumLength`` printable ASCII characters.
    public static func isValid(_ key: String) -> Bool {
        !key.isEmpty && key.count <= maximumLength
            && key.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
    }
}

/// How the start's idempotency keys are held and waited for.
public struct IdempotencyConfiguration: Sendable {
    /// How long a key stays held after its owner's last renewal. Default 3 s.
    public var lease: Duration = .seconds(3)
    /// How often the owner renews. Default 1 s.
    public var renewEvery: Duration = .seconds(1)
    /// When a row without a lease (written before leases) lapses after its creation. Default 60 s.
    public var staleAfter: Duration = .seconds(60)
    /// How long a replay waits for the live request holding its key before
    /// `idempotency_key_in_progress`. Default 2 s.
    public var wait: Duration = .seconds(2)

    public init() {}
}
