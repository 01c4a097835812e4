import Foundation
import HTTPServer
import Observability

/// How Unico authenticates its webhook calls to `POST /v1/webhooks/unico`, as configured at Unico.
///
/// Configuration (`UNICO_WEBHOOK_AUTH`), one of:
/// - `basic:<user>:<password>`: `Authorization: Basic base64(user:password)`;
/// - `header:<Header-Name>:<value>`: that header with exactly that value (Unico's API-key mode);
/// - `bearer:<token>`: `Authorization: Bearer <token>`;
/// - `oauth2:<client-id>:<client-secret>`: OAuth2 client credentials. Unico fetches a token from
///   `POST /v1/unico/oauth/token` (grant `client_credentials`, the client authenticated by HTTP
///   Basic or `client_id`/`client_secret` form fields) and presents it as `Authorization: Bearer`;
///   tokens live `UNICO_WEBHOOK_TOKEN_LIFETIME` seconds (default 300), see ``WebhookTokenIssuer``.
///
/// The secret (password, header value, token, client secret) must be at least 32 random bytes
/// (43 characters or more, 10 distinct at least); a weaker one is refused like a malformed value.
/// Unset means the route refuses every call (401): webhooks are never accepted unauthenticated.
/// Comparisons are constant-time; credentials are never logged or echoed.
public struct WebhookAuthenticator: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        case basic(user: String, password: String)
        case header(name: String, value: String)
        case bearer(token: String)
        case oauth2(WebhookTokenIssuer)
    }

    /// The environment variable read by ``fromEnvironment(_:)``.
    public static let environmentVariable = "UNICO_WEBHOOK_AUTH"
    /// The variable holding the `oauth2` mode's token lifetime in seconds (default 300).
    public static let tokenLifetimeVariable = "UNICO_WEBHOOK_TOKEN_LIFETIME"
    /// The shortest secret accepted from configuration: 32 random bytes in base64 (43 characters).
    public static let minimumSecretLength = 43
    /// What ``environmentVariable`` accepts, for messages.
    static let syntax = "basic:user:password, header:Name:value, bearer:token or oauth2:client-id:client-secret"

    public let mode: Mode

    public init(_ mode: Mode) { self.mode = mode }

    /// Parses `basic:user:password`, `header:Name:value`, `bearer:token` or
    /// `oauth2:client-id:client-secret` (tokens living `tokenLifetime` seconds); messages name
    /// `source` (default ``environmentVariable``).
    public init(
        parsing text: String, tokenLifetime: TimeInterval = WebhookTokenIssuer.defaultLifetime,
        source: String = WebhookAuthenticator.environmentVariable
    ) throws {
        func fail(_ message: String) -> Problem {
            Problem(status: .internalServerError, code: "webhook_auth_invalid", detail: message)
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw fail("\(source) must be \(Self.syntax)")
        }
        let kind = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        func split(_ what: String) throws -> (String, String) {
            guard let inner = rest.firstIndex(of: ":"), inner != rest.startIndex else {
                throw fail("\(source) \(kind) needs \(what)")
            }
            return (String(rest[..<inner]), String(rest[rest.index(after: inner)...]))
        }
        func strong(_ secret: String, _ what: String) throws {
            guard secret.count >= Self.minimumSecretLength, Set(secret).count >= 10 else {
                throw fail(
                    "\(source): the \(what) must be at least 32 random bytes "
                        + "(\(Self.minimumSecretLength) or more characters, e.g. `openssl rand -base64 32`); refusing a guessable one"
                )
            }
        }
        switch kind {
        case "basic":
            let (user, password) = try split("user:password")
            try strong(password, "password")
            mode = .basic(user: user, password: password)
        case "header", "apikey", "api-key":
            let (name, value) = try split("Name:value")
            guard !value.isEmpty,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw fail("\(source) header needs a token name and a value") }
            try strong(value, "header value")
            mode = .header(name: name, value: value)
        case "bearer":
            guard !rest.isEmpty else { throw fail("\(source) bearer needs a token") }
            try strong(rest, "bearer token")
            mode = .bearer(token: rest)
        case "oauth2":
            let (id, secret) = try split("client-id:client-secret")
            guard !secret.isEmpty else { throw fail("\(source) oauth2 needs a client secret") }
            try strong(secret, "client secret")
            guard tokenLifetime > 0, tokenLifetime <= 86_400 else {
                throw fail("\(Self.tokenLifetimeVariable) must be 1...86400 seconds")
            }
            mode = .oauth2(WebhookTokenIssuer(clientID: id, clientSecret: secret, lifetime: tokenLifetime))
        default:
            throw fail("\(source) must start with basic:, header:, bearer: or oauth2:")
        }
    }

    /// The configured authenticator, nil when the variable is unset or empty.
    public static func fromEnvironment(_ environment: [String: String]) throws
        -> WebhookAuthenticator?
    {
        guard let text = environment[environmentVariable], !text.isEmpty else { return nil }
        var lifetime = WebhookTokenIssuer.defaultLifetime
        if let given = environment[tokenLifetimeVariable], !given.isEmpty {
            guard let seconds = TimeInterval(given) else {
                throw Problem(
                    status: .internalServerError, code: "webhook_auth_invalid",
                    detail: "\(tokenLifetimeVariable) must be a number of seconds")
            }
            lifetime = seconds
        }
        return try WebhookAuthenticator(parsing: text, tokenLifetime: lifetime)
    }

    /// ``fromEnvironment(_:)`` for the service's default: a malformed value is logged (never the
    /// value) and leaves webhooks refused.
    public static func configured(
        _ environment: [String: String],
        logger: Logger = Logger(label: "api")
    ) -> WebhookAuthenticator? {
        do {
            return try fromEnvironment(environment)
        } catch {
            logger.error(
                "webhook authentication is malformed or weak; every webhook will be refused",
                metadata: [
                    "variable": environmentVariable, "expected": syntax,
                    "reason": (error as? Problem)?.detail ?? "unreadable",
                ])
            return nil
        }
    }

    /// The scheme name for audits (never the credentials).
    public var modeName: String {
        switch mode {
        case .basic: "basic"
        case .header: "header"
        case .bearer: "bearer"
        case .oauth2: "oauth2"
        }
    }

    /// The token issuer of the `oauth2` mode; nil in the other modes.
    public var tokenIssuer: WebhookTokenIssuer? {
        if case .oauth2(let issuer) = mode { return issuer }
        return nil
    }

    /// Whether the request carries the configured credentials (an `oauth2` token unexpired at `now`).
    public func accepts(_ headers: HTTPHeaders, now: Date = Date()) -> Bool {
        switch mode {
        case .basic(let user, let password):
            let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            return Self.equal(headers["Authorization"], expected)
        case .header(let name, let value):
            return Self.equal(headers[name], value)
        case .bearer(let token):
            return Self.equal(headers["Authorization"], "Bearer " + token)
        case .oauth2(let issuer):
            guard let value = headers["Authorization"], value.count > 7,
                value.prefix(7).lowercased() == "bearer "
            else { return false }
            return issuer.accepts(String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces), now: now)
        }
    }

    /// Constant-time in the length of `expected`.
    static func equal(_ given: String?, _ expected: String) -> Bool {
        let a = Array((given ?? "").utf8), b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in b.indices { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return given != nil && difference == 0
    }
}
