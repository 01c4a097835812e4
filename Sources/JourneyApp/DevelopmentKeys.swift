import AccessControl
import Foundation
import Observability
import Privacy

/// The public development keys that `serve` and `work` fall back to on the embedded database,
/// made loud: a warning at start, `/readyz` reports them, and `serve` refuses a non-loopback address.
public struct DevelopmentKeys: Sendable, Equatable {
    /// The key variables that are unset and fell back (empty: real keys throughout).
    public let fallbacks: [String]
    public var inUse: Bool { !fallbacks.isEmpty }

    /// What ``JourneyApp`` falls back to for `configuration` on `database`: nothing off the embedded cluster.
    public static func of(_ configuration: AppConfiguration, database: Database) -> DevelopmentKeys {
        guard database.embedded != nil else { return DevelopmentKeys(fallbacks: []) }
        var fallbacks: [String] = []
        if configuration.privacy == nil {
            fallbacks += [
                PrivacyConfiguration.Variable.activeKey, PrivacyConfiguration.Variable.activeKeyID,
                PrivacyConfiguration.Variable.subjectReferenceKey,
            ]
        }
        if configuration.clientTokens == nil {
            fallbacks.append(ClientTokenIssuer.environmentVariable)
        }
        if configuration.sessionTokens == nil {
            fallbacks.append(ClientTokenIssuer.sessionKeyVariable)
        }
        return DevelopmentKeys(fallbacks: fallbacks)
    }

    /// The warning logged at start (constant text; the variables go in metadata).
    public static let warning = "development keys in use: public keys, for a laptop only"

    /// Logs ``warning`` when the keys are in use.
    public func logWarning(_ logger: Logger) {
        guard inUse else { return }
        logger.warning(
            Self.warning,
            metadata: [
                "set": fallbacks.joined(separator: ","),
                "hint": "set these variables "
                    + "(and DATABASE_URL, DATABASE_ADMIN_URL, \(ProjectorCheck.variable)) to run anywhere but this machine",
            ])
    }

    /// Refuses to listen on `host` beyond loopback with development keys, naming the variables to set.
    public func checkListenAddress(_ host: String) throws {
        guard inUse, !Self.isLoopback(host) else { return }
        throw AppError(
            .invalidInput,
            "refusing to listen on \(host) with the public development keys: set "
                + fallbacks.joined(separator: ", ") + " (see README, Configuration), or listen on 127.0.0.1")
    }

    /// `localhost`, `127.0.0.0/8` and `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
