import Cryptography
import Foundation
import JSONBytes

/// Issues and checks the short-lived bearer tokens Unico presents on its webhooks in the
/// `oauth2` mode of ``WebhookAuthenticator`` (OAuth2 client credentials).
///
/// A token is `v1.<payload>.<mac>`: the payload (base64url JSON `{"cid","exp"}`) signed with
/// HMAC-SHA256 under a key derived from the client secret, so every `serve` process configured
/// with the same secret accepts the tokens any of them issued, and changing the secret revokes
/// them all. Tokens are never stored or logged.
public struct WebhookTokenIssuer: Sendable, Equatable {
    /// The client id Unico is configured with.
    public let clientID: String
    private let clientSecret: String
    private let key: Data
    /// How long an issued token is accepted, in seconds. Default 300.
    public let lifetime: TimeInterval

    /// The default token lifetime, in seconds.
    public static let defaultLifetime: TimeInterval = 300

    public init(clientID: String, clientSecret: String, lifetime: TimeInterval = Self.defaultLifetime) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.lifetime = lifetime
        key = HMACSHA256.authenticate(Data("journeys unico webhook token v1".utf8), key: Data(clientSecret.utf8))
    }

    /// Whether `id` and `secret` are the configured client credentials (constant time).
    public func authenticates(id: String, secret: String) -> Bool {
        let idMatches = WebhookAuthenticator.equal(id, clientID)
        let secretMatches = WebhookAuthenticator.equal(secret, clientSecret)
        return idMatches && secretMatches
    }

    /// A token valid from `now` for ``lifetime`` seconds.
    public func issue(now: Date) -> String {
        let expiry = Int((now.timeIntervalSince1970 + lifetime).rounded(.down))
        let payload: JSONValue = .object(["cid": .string(clientID), "exp": .integer(expiry)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = "v1." + Base64URL.encode((try? encoder.encode(payload)) ?? Data())
        return body + "." + Base64URL.encode(HMACSHA256.authenticate(Data(body.utf8), key: key))
    }

    /// Whether `token` was issued with this secret for this client and is unexpired at `now`.
    public func accepts(_ token: String, now: Date) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let mac = Base64URL.decode(parts[2]) else { return false }
        let body = parts[0] + "." + parts[1]
        guard HMACSHA256.isValid(mac, for: Data(body.utf8), key: key),
            let data = Base64URL.decode(parts[1]),
            let payload = try? JSONDecoder().decode(JSONValue.self, from: data),
            payload["cid"]?.stringValue == clientID,
            let expiry = payload["exp"]?.intValue
        else { return false }
        return now.timeIntervalSince1970 < TimeInterval(expiry)
    }

    public static func == (lhs: WebhookTokenIssuer, rhs: WebhookTokenIssuer) -> Bool {
        lhs.clientID == rhs.clientID && lhs.key == rhs.key && lhs.lifetime == rhs.lifetime
    }
}
