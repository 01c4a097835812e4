import Foundation

/// One of Unico's two environments; each has its own hosts and credentials.
public enum HumanTokenAPIEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    /// The sandbox (Unico calls it UAT or "homolog").
    case uat
    /// Production.
    case prod

    /// The documented OAuth2 token host.
    public var defaultTokenHost: URL {
        switch self {
        case .uat: URL(string: "https://identityhomolog.acesso.io")!
        case .prod: URL(string: "https://identity.acesso.io")!
        }
    }

    /// The documented process API host.
    public var defaultAPIHost: URL {
        switch self {
        case .uat: URL(string: "https://api.idcloud.uat.unico.app")!
        case .prod: URL(string: "https://api.idcloud.unico.app")!
        }
    }

    /// The prefix of this environment's variables, e.g. `UNICO_UAT_`.
    public var variablePrefix: String { "UNICO_\(rawValue.uppercased())_" }
}
