extension UnicoEmulator {
    /// A Unico environment; processes and credentials never cross from one to the other.
    public enum Environment: String, Sendable, Hashable, Codable, CaseIterable {
        case uat = "UAT"
        case prod = "PROD"

        /// Unico's documented OAuth2 token host for this environment, the default expected `aud`.
        public var defaultTokenHost: String {
            switch self {
            case .uat: "https://identityhomolog.acesso.io"
            case .prod: "https://identity.acesso.io"
            }
        }

        /// Parses `UAT`/`PROD` in any letter case.
        public init?(name: String) {
            self.init(rawValue: name.uppercased())
        }
    }
}
