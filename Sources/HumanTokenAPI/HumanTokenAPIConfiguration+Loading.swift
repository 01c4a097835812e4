import Cryptography
import Foundation
import JSONBytes

extension HumanTokenAPIConfiguration {
    /// Reads one environment's settings from variables such as `UNICO_UAT_TENANT`.
    ///
    /// Variables (prefix `UNICO_UAT_` or `UNICO_PROD_`): `SERVICE_ACCOUNT`, `TENANT` and
    /// `PRIVATE_KEY_FILE` (or `PRIVATE_KEY` holding the PEM itself) are required; `TOKEN_HOST`,
    /// `API_HOST`, `REQUEST_TIMEOUT` (seconds), `TOKEN_REFRESH_MARGIN` (seconds), `RATE_LIMIT`
    /// (requests per second), `LIVE_RATE_WAIT` (seconds), `CREATE_PROCESS_PATH`, `GET_PROCESS_PATH` (with `{id}`),
    /// `FIND_PROCESSES_PATH` and `LOOKUP` (`search` or `none`, default `none`: Unico documents no
    /// search by client reference) are optional. Errors name the variable.
    public static func fromEnvironment(
        _ variables: [String: String] = ProcessInfo.processInfo.environment,
        environment: HumanTokenAPIEnvironment
    ) throws -> HumanTokenAPIConfiguration {
        let prefix = environment.variablePrefix
        var settings: [String: String] = [:]
        for (setting, suffix) in variableSuffixes {
            if let value = variables[prefix + suffix]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
                settings[setting] = value
            }
        }
        if let pem = variables[prefix + "PRIVATE_KEY"], !pem.isEmpty { settings["privateKeyPEM"] = pem }
        let names = Dictionary(uniqueKeysWithValues: variableSuffixes.map { ($0.0, prefix + $0.1) })
            .merging(["privateKey": prefix + "PRIVATE_KEY_FILE", "privateKeyPEM": prefix + "PRIVATE_KEY"]) { $1 }
        return try make(environment: environment, settings: settings, names: names, baseDirectory: nil)
    }

    /// Reads one environment's settings from a JSON file.
    ///
    /// The file holds an object per environment, e.g.
    /// `{"uat": {"serviceAccount": "...", "tenant": "...", "privateKeyFile": "uat.pem"}}`, with the
    /// optional `tokenHost`, `apiHost`, `privateKey` (PEM text), `requestTimeout`,
    /// `tokenRefreshMargin`, `rateLimit`, `liveRateWait`, `createProcessPath`, `getProcessPath`,
    /// `findProcessesPath` and `lookup` (default `none`). A relative `privateKeyFile` is resolved against the
    /// file's directory. Errors name the key path, e.g. `uat.tenant`. With `path`, the
    /// environment's object sits under those keys (`["tenants", "acme"]`: `tenants.acme.uat`).
    public static func load(
        contentsOf file: URL, environment: HumanTokenAPIEnvironment, under path: [String] = []
    ) throws -> HumanTokenAPIConfiguration {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw HumanTokenAPIError.configuration(file.path, "cannot be read")
        }
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data), root.objectValue != nil else {
            throw HumanTokenAPIError.configuration(file.path, "is not a JSON object")
        }
        var parent = root
        for (depth, key) in path.enumerated() {
            guard let next = parent[key], next.objectValue != nil else {
                throw HumanTokenAPIError.configuration(
                    path.prefix(depth + 1).joined(separator: "."),
                    "is missing from \(file.lastPathComponent)")
            }
            parent = next
        }
        let section = (path + [environment.rawValue]).joined(separator: ".")
        guard let object = parent[environment.rawValue]?.objectValue else {
            throw HumanTokenAPIError.configuration(section, "is missing from \(file.lastPathComponent)")
        }
        var settings: [String: String] = [:]
        for (key, value) in object {
            let setting = key == "privateKeyFile" ? "privateKey" : key == "privateKey" ? "privateKeyPEM" : key
            guard variableSuffixes.keys.contains(setting) || setting == "privateKeyPEM" else {
                throw HumanTokenAPIError.configuration("\(section).\(key)", "is not a known setting")
            }
            switch value {
            case .string(let text): settings[setting] = text
            case .integer(let number): settings[setting] = String(number)
            case .number(let number): settings[setting] = String(number)
            default: throw HumanTokenAPIError.configuration("\(section).\(key)", "must be a string or a number")
            }
        }
        var names = Dictionary(uniqueKeysWithValues: variableSuffixes.keys.map { ($0, "\(section).\($0)") })
        names["privateKey"] = "\(section).privateKeyFile"
        names["privateKeyPEM"] = "\(section).privateKey"
        return try make(
            environment: environment, settings: settings, names: names,
            baseDirectory: file.deletingLastPathComponent())
    }

    /// Setting name to environment-variable suffix.
    private static let variableSuffixes: [String: String] = [
        "tokenHost": "TOKEN_HOST", "apiHost": "API_HOST", "serviceAccount": "SERVICE_ACCOUNT",
        "tenant": "TENANT", "privateKey": "PRIVATE_KEY_FILE", "requestTimeout": "REQUEST_TIMEOUT",
        "tokenRefreshMargin": "TOKEN_REFRESH_MARGIN", "rateLimit": "RATE_LIMIT",
        "liveRateWait": "LIVE_RATE_WAIT",
        "createProcessPath": "CREATE_PROCESS_PATH", "getProcessPath": "GET_PROCESS_PATH",
        "findProcessesPath": "FIND_PROCESSES_PATH", "lookup": "LOOKUP",
    ]

    private static func make(
        environment: HumanTokenAPIEnvironment, settings: [String: String], names: [String: String],
        baseDirectory: URL?
    ) throws -> HumanTokenAPIConfiguration {
        func required(_ setting: String) throws -> String {
            guard let value = settings[setting] else {
                throw HumanTokenAPIError.configuration(names[setting] ?? setting, "is missing")
            }
            return value
        }
        func url(_ setting: String) throws -> URL? {
            guard let text = settings[setting] else { return nil }
            guard let url = URL(string: text), url.scheme != nil else {
                throw HumanTokenAPIError.configuration(names[setting] ?? setting, "is not a URL")
            }
            return url
        }
        func number(_ setting: String, default value: Double) throws -> Double {
            guard let text = settings[setting] else { return value }
            guard let number = Double(text) else {
                throw HumanTokenAPIError.configuration(names[setting] ?? setting, "is not a number")
            }
            return number
        }
        var lookup = defaultLookup
        if let text = settings["lookup"] {
            guard let value = ProcessLookup(rawValue: text.lowercased()) else {
                throw HumanTokenAPIError.configuration(names["lookup"] ?? "lookup", "must be search or none")
            }
            lookup = value
        }
        let serviceAccount = try required("serviceAccount")
        let tenant = try required("tenant")
        let key: PrivateKeySource
        switch (settings["privateKey"], settings["privateKeyPEM"]) {
        case (let path?, nil):
            let resolved =
                path.hasPrefix("/") || baseDirectory == nil
                ? path : baseDirectory!.appendingPathComponent(path).path
            key = .file(resolved)
        case (nil, let pem?):
            key = .pem(pem)
        case (.some, .some):
            throw HumanTokenAPIError.configuration(
                names["privateKey"] ?? "privateKey", "and \(names["privateKeyPEM"] ?? "privateKeyPEM") are both set")
        case (nil, nil):
            throw HumanTokenAPIError.configuration(names["privateKey"] ?? "privateKey", "is missing")
        }
        let configuration = HumanTokenAPIConfiguration(
            environment: environment,
            serviceAccount: serviceAccount,
            tenant: tenant,
            privateKey: key,
            tokenHost: try url("tokenHost"),
            apiHost: try url("apiHost"),
            requestTimeout: try number("requestTimeout", default: defaultRequestTimeout),
            tokenRefreshMargin: try number("tokenRefreshMargin", default: defaultTokenRefreshMargin),
            rateLimit: try number("rateLimit", default: defaultRateLimit),
            liveRateWait: try number("liveRateWait", default: defaultLiveRateWait),
            createProcessPath: settings["createProcessPath"] ?? defaultCreateProcessPath,
            getProcessPath: settings["getProcessPath"] ?? defaultGetProcessPath,
            findProcessesPath: settings["findProcessesPath"] ?? defaultFindProcessesPath,
            lookup: lookup)
        var validationNames = names
        if case .pem = key { validationNames["privateKey"] = names["privateKeyPEM"] }
        try configuration.validate(names: validationNames)
        return configuration
    }
}
