import Foundation

/// The Unico environment of a journey; the SDK Lite must use the same one (`setEnvironment(.UAT)`/`.PROD`).
public enum JourneyEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case uat = "UAT"
    case prod = "PROD"
}

/// The 201 body of `POST /v1/journeys`, decoded by the company's backend and handed to the app.
///
/// Starting a journey needs the company's API key (scope `journeys:write`), so it is done by the
/// company's **backend**, never by the app. The backend forwards this value (or just
/// ``journeyId`` and ``clientToken``) to the app, which builds a ``JourneySession`` from it:
///
/// ```swift
/// // Backend (holds the API key):
/// //   POST /v1/journeys  Authorization: Bearer jk_...  Idempotency-Key: <uuid>
/// let start = try JourneyStart.decode(from: responseBody)
/// // App (holds only the journey-scoped client token):
/// let session = JourneySession(start: start, baseURL: URL(string: "https://journeys.example.com")!)
/// ```
public struct JourneyStart: Sendable, Hashable, Codable {
    /// The journey's id (a lowercase UUID).
    public var journeyId: String
    /// The attempt the token belongs to (1); nil when the journey started without a process
    /// (the default): the app's ``JourneyClient/refreshToken()`` right before the capture makes it.
    public var attempt: Int?
    /// The `webAppToken` to pass to `prepareAndOpenSelfieCamera(_:webAppToken:)`, when the
    /// backend asked for the process with the start (`"createProcess": "now"`).
    public var webAppToken: String?
    /// When ``webAppToken`` expires (5 minutes after the process was created).
    public var webAppTokenExpiresAt: Date?
    /// The environment to set on `AcessoBioManager` with `setEnvironment`.
    public var environment: JourneyEnvironment
    /// The journey-scoped client token: the only credential the app holds.
    public var clientToken: String
    /// When ``clientToken`` expires, if the service said so.
    public var clientTokenExpiresAt: Date?
    /// `started` when the journey has no process yet.
    public var status: String?
    /// When a journey started without a process is abandoned if the app never asks for a token.
    public var firstTokenBy: Date?

    public init(
        journeyId: String, attempt: Int?, webAppToken: String?, webAppTokenExpiresAt: Date?,
        environment: JourneyEnvironment, clientToken: String, clientTokenExpiresAt: Date? = nil
    ) {
        self.journeyId = journeyId
        self.attempt = attempt
        self.webAppToken = webAppToken
        self.webAppTokenExpiresAt = webAppTokenExpiresAt
        self.environment = environment
        self.clientToken = clientToken
        self.clientTokenExpiresAt = clientTokenExpiresAt
    }

    /// Decodes the JSON body of a 201 answer of `POST /v1/journeys`.
    public static func decode(from data: Data) throws -> JourneyStart {
        try JourneyJSON.decoder().decode(JourneyStart.self, from: data)
    }

    /// The first token grant, as if the app had called ``JourneyClient/refreshToken()``; nil
    /// when the journey started without a process.
    public var grant: TokenGrant? {
        guard let attempt, let webAppToken, let webAppTokenExpiresAt else { return nil }
        return TokenGrant(
            journeyId: journeyId, attempt: attempt, webAppToken: webAppToken, expiresAt: webAppTokenExpiresAt,
            environment: environment)
    }
}

/// A `webAppToken` for one capture: the current one while its capture has not opened and 60 s
/// of it remain, else a fresh process.
public struct TokenGrant: Sendable, Hashable, Codable {
    public var journeyId: String
    /// The attempt (Unico process) this token opens; a fresh process increments it.
    public var attempt: Int
    /// Pass it as is to `prepareAndOpenSelfieCamera(_:webAppToken:)`.
    public var webAppToken: String
    /// When the token expires.
    public var expiresAt: Date
    /// The environment to set on the SDK builder.
    public var environment: JourneyEnvironment

    public init(journeyId: String, attempt: Int, webAppToken: String, expiresAt: Date, environment: JourneyEnvironment) {
        self.journeyId = journeyId
        self.attempt = attempt
        self.webAppToken = webAppToken
        self.expiresAt = expiresAt
        self.environment = environment
    }

    private enum CodingKeys: String, CodingKey {
        case journeyId, attempt, webAppToken, expiresAt = "webAppTokenExpiresAt", environment
    }
}

/// The current attempt's Unico link, for an app that cannot use the SDK Lite.
public struct LinkGrant: Sendable, Hashable, Decodable {
    public var journeyId: String
    public var attempt: Int
    /// Open it in the browser (or a web view); it leads to the same process as the attempt's token.
    public var link: String
    public var linkExpiresAt: Date
}

/// What the service answers to a report: the journey's status after it, without personal data.
public struct JourneyStatus: Sendable, Hashable, Decodable {
    public var journeyId: String
    /// E.g. `captureOpened`, `awaitingResult`, `completed`, `abandoned`.
    public var status: String
    /// The current attempt.
    public var attempt: Int
    /// `approved`/`rejected` once the journey completed.
    public var outcome: String?
    /// The last SDK error code reported, with the service's catalog entry.
    public var lastErrorCode: ErrorCode?

    /// A catalog entry of an SDK error code.
    public struct ErrorCode: Sendable, Hashable, Decodable {
        public var code: Int
        public var meaning: String?
        public var action: String?
        public var retryable: Bool?
    }
}

/// What the app keeps for one journey: where the service is, the journey id and the client token.
///
/// It holds no API key. It is `Codable` so the app can keep it across a restart (in the keychain:
/// the client token is a credential, if a short-lived one scoped to this journey).
public struct JourneySession: Sendable, Hashable, Codable {
    /// The service's base URL, e.g. `https://journeys.example.com` (paths `v1/...` are appended).
    public var baseURL: URL
    public var journeyID: String
    /// Sent as `Authorization: Bearer <clientToken>`.
    public var clientToken: String
    public var clientTokenExpiresAt: Date?

    public init(baseURL: URL, journeyID: String, clientToken: String, clientTokenExpiresAt: Date? = nil) {
        self.baseURL = baseURL
        self.journeyID = journeyID
        self.clientToken = clientToken
        self.clientTokenExpiresAt = clientTokenExpiresAt
    }

    /// The session of a journey the backend started.
    public init(start: JourneyStart, baseURL: URL) {
        self.init(
            baseURL: baseURL, journeyID: start.journeyId, clientToken: start.clientToken,
            clientTokenExpiresAt: start.clientTokenExpiresAt)
    }

    /// Whether the client token has expired at `now` (false when the expiry is unknown).
    public func isExpired(at now: Date = Date()) -> Bool {
        guard let clientTokenExpiresAt else { return false }
        return clientTokenExpiresAt <= now
    }
}

/// The JSON conventions of the service: RFC 3339 dates, with or without fractional seconds.
enum JourneyJSON {
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date: \(text)")
            }
            return date
        }
        return decoder
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
