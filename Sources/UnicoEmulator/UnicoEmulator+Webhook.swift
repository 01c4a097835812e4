import Foundation

extension UnicoEmulator {
    /// How Unico authenticates to the webhook receiver (webhooks are not signed).
    public enum WebhookAuthentication: Sendable, Equatable {
        case none
        /// `Authorization: Basic base64(user:password)`.
        case basic(user: String, password: String)
        /// A header of your choosing, configured at Unico as `Header-Name:value`.
        case apiKey(header: String, value: String)
        /// `Authorization: Bearer <token>`.
        case bearer(token: String)
        /// OAuth2 client credentials: a token fetched from `tokenURL` (absolute, or a path resolved
        /// against the webhook URL) with HTTP Basic `clientID:clientSecret`, cached until it
        /// expires, sent as `Authorization: Bearer`.
        case oauth2(tokenURL: String, clientID: String, clientSecret: String)

        /// Parses Unico's API-key setting: `Header-Name:value` (split on the first colon) sends that
        /// header; a value without a colon is sent as `Authorization` with no scheme.
        public init(apiKeyHeader: String) throws(EmulatorError) {
            guard let colon = apiKeyHeader.firstIndex(of: ":") else {
                guard !apiKeyHeader.isEmpty else {
                    throw EmulatorError(.invalidConfiguration, "API-key webhook setting is empty")
                }
                self = .apiKey(header: "Authorization", value: apiKeyHeader)
                return
            }
            let name = apiKeyHeader[..<colon].trimmingCharacters(in: .whitespaces)
            let value = apiKeyHeader[apiKeyHeader.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw EmulatorError(.invalidConfiguration, "API-key webhook header name is not a valid token")
            }
            self = .apiKey(header: name, value: value)
        }

        /// Parses Unico's Basic setting, `user:pass` (split on the first colon).
        public init(basicCredentials: String) throws(EmulatorError) {
            guard let colon = basicCredentials.firstIndex(of: ":"), colon != basicCredentials.startIndex else {
                throw EmulatorError(.invalidConfiguration, "Basic webhook credentials must be written user:pass")
            }
            self = .basic(
                user: String(basicCredentials[..<colon]),
                password: String(basicCredentials[basicCredentials.index(after: colon)...]))
        }

        /// The header to send, if any; the `oauth2` one is fetched at send time.
        var header: (name: String, value: String)? {
            switch self {
            case .none, .oauth2: nil
            case .basic(let user, let password):
                ("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
            case .apiKey(let header, let value): (header, value)
            case .bearer(let token): ("Authorization", "Bearer " + token)
            }
        }
    }

    /// Where and how finished processes are announced.
    public struct WebhookConfiguration: Sendable {
        /// The receiver's URL.
        public var url: URL
        public var authentication: WebhookAuthentication
        /// Attempts per notification, the first included. Default 5.
        public var maxAttempts: Int
        /// Wait before the second attempt; doubles (times `backoffMultiplier`) after each failure. Default 50 ms.
        public var initialBackoff: Duration
        /// Longest wait between attempts. Default 2 s.
        public var maxBackoff: Duration
        /// Growth of the wait per failed attempt. Default 2.
        public var backoffMultiplier: Double
        /// Timeout of one attempt. Default 5 s.
        public var requestTimeout: Duration
        /// Notifications delivered at the same time. Default 500, as Unico documents.
        public var maxConcurrentDeliveries: Int

        public init(
            url: URL,
            authentication: WebhookAuthentication = .none,
            maxAttempts: Int = 5,
            initialBackoff: Duration = .milliseconds(50),
            maxBackoff: Duration = .seconds(2),
            backoffMultiplier: Double = 2,
            requestTimeout: Duration = .seconds(5),
            maxConcurrentDeliveries: Int = 500
        ) {
            self.url = url
            self.authentication = authentication
            self.maxAttempts = maxAttempts
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.backoffMultiplier = backoffMultiplier
            self.requestTimeout = requestTimeout
            self.maxConcurrentDeliveries = maxConcurrentDeliveries
        }

        /// The OAuth2 token URL: `text` itself when absolute, else resolved against ``url``.
        func resolvedTokenURL(_ text: String) -> URL? {
            guard let resolved = URL(string: text, relativeTo: url)?.absoluteURL,
                ["http", "https"].contains(resolved.scheme?.lowercased() ?? "")
            else { return nil }
            return resolved
        }

        /// The wait after failed attempt number `attempt` (1-based).
        func backoff(afterAttempt attempt: Int) -> Duration {
            let factor = pow(backoffMultiplier, Double(max(0, attempt - 1)))
            let scaled = initialBackoff * factor
            return scaled > maxBackoff ? maxBackoff : scaled
        }

        func validate() throws(EmulatorError) {
            func check(_ condition: Bool, _ message: String) throws(EmulatorError) {
                if !condition { throw EmulatorError(.invalidConfiguration, message) }
            }
            try check(["http", "https"].contains(url.scheme?.lowercased() ?? ""), "webhook URL must be http or https")
            try check(maxAttempts >= 1, "webhook maxAttempts must be at least 1")
            try check(initialBackoff >= .zero && maxBackoff >= initialBackoff, "webhook backoff needs 0 <= initial <= max")
            try check(backoffMultiplier >= 1, "webhook backoffMultiplier must be at least 1")
            try check(requestTimeout > .zero, "webhook requestTimeout must be positive")
            try check(maxConcurrentDeliveries >= 1, "webhook maxConcurrentDeliveries must be at least 1")
            if case .oauth2(let tokenURL, let clientID, let clientSecret) = authentication {
                try check(resolvedTokenURL(tokenURL) != nil, "webhook OAuth2 token URL must be http(s) or a path")
                try check(!clientID.isEmpty && !clientSecret.isEmpty, "webhook OAuth2 needs a client id and secret")
            }
        }
    }
}
