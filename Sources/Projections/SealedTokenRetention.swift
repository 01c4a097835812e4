import Foundation
import Postgres

/// The read model's part of the retention policy: `journey_state` is the projection's table, so
/// Unico's sealed secrets (`webAppToken`, process `token`, `link`) leave the attempts of journeys
/// that ended before a cutoff through here. The log keeps them, sealed, until the subject is
/// erased; a rebuild copies them back, and the next retention run drops them again.
public enum SealedTokenRetention {
    /// How many ended journeys still hold a sealed token or link and ended before `cutoff`.
    public static func count(endedBefore cutoff: Date, on client: PostgresClient) async throws -> Int {
        try await client.query(ProjectionsRetentionStatements.journeysHoldingTokens(endedBefore: cutoff)).first?
            .decode(0, as: Int.self) ?? 0
    }

    /// Drops them from up to `limit` of those journeys, oldest first; how many it changed.
    /// `client` must be the projector's role (only it may change `journey_state`).
    public static func drop(endedBefore cutoff: Date, limit: Int, on client: PostgresClient) async throws -> Int {
        try await client.query(ProjectionsRetentionStatements.dropTokens(endedBefore: cutoff, limit: limit)).affectedRows
    }
}
