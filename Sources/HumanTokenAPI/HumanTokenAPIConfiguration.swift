import Foundation

/// Everything a ``HumanTokenAPIClient`` needs to talk to one Unico environment.
///
/// Hosts default to the documented ones for ``environment``; the service account, tenant and
/// private key are the company's own. Its description never shows the key.
public struct HumanTokenAPIConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// Which environment this is; UAT and PROD have separate credentials.
    public var environment: HumanTokenAPIEnvironment
    /// The OAuth2 token host. Default: ``HumanTokenAPIEnvironment/defaultTokenHost``.
    public var tokenHost: URL
    /// The process API host. Default: ``HumanTokenAPIEnvironment/defaultAPIHost``.
    public var apiHost: URL
    /// The service account name (the part before `@` in the assertion's `iss`).
    public var serviceAccount: String
    /// The tenant id (between `@` and `.iam.acesso.io` in the assertion's `iss`).
    public var tenant: String
    /// The service account's RSA private key.
    public var privateKey: PrivateKeySource
    /// How long to wait for an answer, in seconds. Default: 10.
    public var requestTimeout: TimeInterval
    /// How long before `expires_in` runs out a cached access token is replaced, in seconds. Default: 60.
    public var tokenRefreshMargin: TimeInterval
    /// API requests per second allowed for the tenant by the client-side limiter. Default: 10.
    ///
    /// Unico's own bucket starts at another instant, so set this a little below the tenant's
    /// limit (lower in UAT) if 429s must not happen at all.
    public var rateLimit: Double
    /// How long a live call (a journey start) may wait for a rate token, Unico's 429
    /// `Retry-After` included, before it fails `rate_limited`, in seconds. Default: 2.
    public var liveRateWait: TimeInterval
    /// Create Process's path on ``apiHost``. Default `/processes`.
    public var createProcessPath: String
    /// Get Process's path on ``apiHost``, with `{id}` where the process id goes. Default `/processes/{id}`.
    public var getProcessPath: String
    /// The lookup by `clientReference`'s path on ``apiHost`` (ASSUMED endpoint). Default `/processes`.
    public var findProcessesPath: String
    /// Whether reconciliation may search by `clientReference`. Default ``ProcessLookup/none``:
    /// Unico documents no such search, so against real Unico nothing may depend on it; set
    /// ``ProcessLookup/search`` for an account that has it, or for the emulator (which serves it).
    public var lookup: ProcessLookup

    /// The default Create Process path.
    public static let defaultCreateProcessPath = "/processes"
    /// The default Get Process path.
    public static let defaultGetProcessPath = "/processes/{id}"
    /// The default lookup path.
    public static let defaultFindProcessesPath = "/processes"
    /// The default lookup for a real Unico environment: none (the search is not documented).
    public static let defaultLookup = ProcessLookup.none

    /// The default request timeout, in seconds.
    public static let defaultRequestTimeout: TimeInterval = 10
    /// The default token refresh margin, in seconds.
    public static let defaultTokenRefreshMargin: TimeInterval = 60
    /// The documented default rate limit per tenant, in requests per second.
    public static let defaultRateLimit: Double = 10
    /// The default bound on a live call's wait for a rate token, in seconds.
    public static let defaultLiveRateWait: TimeInterval = 2

    public init(
        environment: HumanTokenAPIEnvironment,
        serviceAccount: String,
        tenant: String,
        privateKey: PrivateKeySource,
        tokenHost: URL? = nil,
        apiHost: URL? = nil,
        requestTimeout: TimeInterval = Self.defaultRequestTimeout,
        tokenRefreshMargin: TimeInterval = Self.defaultTokenRefreshMargin,
        rateLimit: Double = Self.defaultRateLimit,
        liveRateWait: TimeInterval = Self.defaultLiveRateWait,
        createProcessPath: String = Self.defaultCreateProcessPath,
        getProcessPath: String = Self.defaultGetProcessPath,
        findProcessesPath: String = Self.defaultFindProcessesPath,
        lookup: ProcessLookup = Self.defaultLookup
    ) {
        self.environment = environment
        self.serviceAccount = serviceAccount
        self.tenant = tenant
        self.privateKey = privateKey
        self.tokenHost = tokenHost ?? environment.defaultTokenHost
        self.apiHost = apiHost ?? environment.defaultAPIHost
        self.requestTimeout = requestTimeout
        self.tokenRefreshMargin = tokenRefreshMargin
        self.rateLimit = rateLimit
        self.liveRateWait = liveRateWait
        self.createProcessPath = createProcessPath
        self.getProcessPath = getProcessPath
        self.findProcessesPath = findProcessesPath
        self.lookup = lookup
    }

    /// The assertion's `iss`: `<service-account>@<tenant>.iam.acesso.io`.
    public var issuer: String { "\(serviceAccount)@\(tenant).iam.acesso.io" }

    /// The assertion's `aud`: the token host URL without a trailing slash.
    public var audience: String { Self.trimmed(tokenHost) }

    /// `POST` here for access tokens.
    public var tokenEndpoint: URL { URL(string: audience + "/oauth2/token")! }

    /// The URL of an API path such as `/processes`.
    public func apiURL(_ path: String) -> URL { URL(string: Self.trimmed(apiHost) + path)! }

    /// Throws a `configuration` error naming the first unusable setting.
    ///
    /// `names` maps setting names (`tokenHost`, `tenant`, ...) to how the caller spelled them
    /// (an environment variable, a key path in a file), so errors point at the right place.
    public func validate(names: [String: String] = [:]) throws {
        func name(_ setting: String) -> String { names[setting] ?? setting }
        try Self.checkHost(tokenHost, setting: name("tokenHost"))
        try Self.checkHost(apiHost, setting: name("apiHost"))
        for (setting, value) in [("serviceAccount", serviceAccount), ("tenant", tenant)] {
            guard !value.isEmpty else { throw HumanTokenAPIError.configuration(name(setting), "is empty") }
            guard value.unicodeScalars.allSatisfy(Self.isIdentifierCharacter) else {
                throw HumanTokenAPIError.configuration(
                    name(setting), "may contain only letters, digits, '.', '_' and '-'")
            }
        }
        guard requestTimeout > 0, requestTimeout.isFinite else {
            throw HumanTokenAPIError.configuration(name("requestTimeout"), "must be a positive number of seconds")
        }
        guard tokenRefreshMargin >= 0, tokenRefreshMargin.isFinite else {
            throw HumanTokenAPIError.configuration(name("tokenRefreshMargin"), "must be zero or more seconds")
        }
        guard rateLimit > 0, rateLimit.isFinite else {
            throw HumanTokenAPIError.configuration(name("rateLimit"), "must be a positive number of requests per second")
        }
        guard liveRateWait >= 0, liveRateWait.isFinite else {
            throw HumanTokenAPIError.configuration(name("liveRateWait"), "must be zero or more seconds")
        }
        for (setting, path) in [
            ("createProcessPath", createProcessPath), ("getProcessPath", getProcessPath),
            ("findProcessesPath", findProcessesPath),
        ] {
            try Self.checkPath(path, setting: name(setting), needsID: setting == "getProcessPath")
        }
        _ = try privateKey.load(setting: name("privateKey"))
    }

    public var description: String {
        "HumanTokenAPIConfiguration(environment: \(environment.rawValue), tokenHost: \(audience), "
            + "apiHost: \(Self.trimmed(apiHost)), issuer: \(issuer), privateKey: \(privateKey), "
            + "requestTimeout: \(requestTimeout)s, tokenRefreshMargin: \(tokenRefreshMargin)s, "
            + "rateLimit: \(rateLimit)/s, liveRateWait: \(liveRateWait)s, "
            + "paths: \(createProcessPath) \(getProcessPath) \(findProcessesPath), lookup: \(lookup.rawValue))"
    }

    private static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
    }

    private static func trimmed(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// An absolute path without query or fragment; Get Process's holds `{id}` once.
    private static func checkPath(_ path: String, setting: String, needsID: Bool) throws {
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#"), !path.contains(" ") else {
            throw HumanTokenAPIError.configuration(setting, "must be a path starting with / (no query, fragment or spaces)")
        }
        let ids = path.components(separatedBy: "{id}").count - 1
        guard ids == (needsID ? 1 : 0) else {
            throw HumanTokenAPIError.configuration(setting, needsID ? "must contain {id} once" : "must not contain {id}")
        }
    }

    /// HTTPS, or plain HTTP only on loopback (the emulator); no query, fragment or credentials.
    private static func checkHost(_ url: URL, setting: String) throws {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw HumanTokenAPIError.configuration(setting, "must be an absolute http(s) URL")
        }
        let loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw HumanTokenAPIError.configuration(setting, "must use https (plain http only on loopback)")
        }
        guard url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            throw HumanTokenAPIError.configuration(setting, "must not carry a query, fragment or credentials")
        }
    }
}
