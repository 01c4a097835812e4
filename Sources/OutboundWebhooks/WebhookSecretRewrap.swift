import Foundation
import Postgres
import Privacy

/// The sealed secrets of `webhook_endpoints` as a `RewrapTarget` of `KEKRotation`.
public struct WebhookSecretRewrap: RewrapTarget {
    let sealer: WebhookSecretSealer

    /// `sealer` holds every configured KEK; its active one re-seals.
    public init(sealer: WebhookSecretSealer) {
        self.sealer = sealer
    }

    public var noun: String { "webhook secrets" }

    public func census(on connection: PostgresConnection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try connection.query(OutboundWebhooksStatements.sealedSecretsByKEK()) {
            counts[try row.decode(0, as: String.self)] = Int(try row.decode(1, as: Int64.self))
        }
        return counts
    }

    public func rows(
        after cursor: String?, notUnder activeKeyID: String, keyID: String?, limit: Int,
        on connection: PostgresConnection
    ) throws -> [WrappedValue] {
        let after = cursor.flatMap(UUID.init(uuidString:)) ?? UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        return try connection.query(
            OutboundWebhooksStatements.secretsToReseal(
                after: after, notUnder: activeKeyID, keyID: keyID, limit: limit)
        ).map { row in
            WrappedValue(
                id: (try row.decode(0, as: UUID.self)).uuidString.lowercased(),
                wrapped: try row.decode(1), keyID: try row.decode(2))
        }
    }

    public func rewrap(_ row: WrappedValue, activeKeyID: String) throws -> Data {
        guard let endpointID = UUID(uuidString: row.id), activeKeyID == sealer.activeKeyID else {
            throw WebhookError(.invalidConfiguration, "the webhook secret sealer's active key id differs from the rotation's")
        }
        return try sealer.seal(try sealer.open(row.wrapped, keyID: row.keyID, endpointID: endpointID), endpointID: endpointID)
            .sealed
    }

    public func replace(_ row: WrappedValue, with rewrapped: Data, keyID: String, on connection: PostgresConnection) throws
        -> Bool
    {
        guard let endpointID = UUID(uuidString: row.id) else { return false }
        return try connection.query(
            OutboundWebhooksStatements.resealSecret(
                endpointID, from: row.wrapped, fromKeyID: row.keyID, to: rewrapped, keyID: keyID)
        ).affectedRows == 1
    }
}
