import Foundation
import Postgres

/// Reads of the `journey_state` read model for other modules (the API's listing and gauges):
/// the read model's tables are read only here, in Projections.
public enum JourneyStateQueries {
    /// One journey as listed; statuses and environments are the stored raw values.
    public struct ListedJourney: Sendable, Equatable {
        public var journeyID: String
        public var status: String
        public var attempt: Int
        public var environment: String?
        public var flow: String?
        public var purpose: String?
        public var clientReference: String?
        public var subjectReference: String?
        public var startedAt: Date?
        public var completedAt: Date?
        public var abandonedAt: Date?
        public var outcome: String?
        public var lastErrorCode: Int?
        /// `startedAt` in microseconds since 1970, exact: the keyset cursor's key with `journeyID`.
        public var startedMicros: Int64
    }

    /// Started journeys of `tenant` newest first (by start time, then id descending), at most
    /// `limit`, those strictly after the keyset position `after` (start microseconds, journey id)
    /// when given. A nil filter matches every value; the creation range is
    /// `createdFrom <= started_at < createdTo`.
    public static func page(
        tenant: String, subject: String?, clientReference: String? = nil, status: String?,
        environment: String?, createdFrom: Date? = nil, createdTo: Date? = nil,
        after: (startedMicros: Int64, journeyID: String)?, limit: Int,
        on client: PostgresClient
    ) async throws -> [ListedJourney] {
        let query = ProjectionsStatements.page(
            tenant: tenant, subject: subject, clientReference: clientReference,
            status: status, environment: environment, createdFrom: createdFrom,
            createdTo: createdTo, afterMicros: after?.startedMicros,
            afterID: after?.journeyID, limit: limit)
        return try await client.query(query).map { row in
            ListedJourney(
                journeyID: try row.decode(0), status: try row.decode(1), attempt: try row.decode(2),
                environment: try row.decode(3), flow: try row.decode(4), purpose: try row.decode(5),
                clientReference: try row.decode(6), subjectReference: try row.decode(7), startedAt: try row.decode(8),
                completedAt: try row.decode(9), abandonedAt: try row.decode(10), outcome: try row.decode(11),
                lastErrorCode: try row.decode(12), startedMicros: try row.decode(13))
        }
    }

    /// Journeys per stored status (statuses without journeys are absent), and how many of them
    /// have awaited their result for more than `minutes` since a success callback.
    public static func statusCounts(
        resultOverdueAfterMinutes minutes: Int,
        on client: PostgresClient
    ) async throws -> (byStatus: [String: Int64], overdue: Int64) {
        var counts: [String: Int64] = [:]
        var overdue: Int64 = 0
        for row in try await client.query(ProjectionsStatements.statusCounts(resultOverdueAfterMinutes: minutes)) {
            counts[try row.decode(0)] = try row.decode(1)
            overdue += try row.decode(2, as: Int64.self)
        }
        return (counts, overdue)
    }

    /// How many journeys have due work (expiry, retry, reconciliation, result) due before `cutoff`.
    public static func dueCount(before cutoff: Date, on client: PostgresClient) async throws -> Int64 {
        try await client.query(ProjectionsStatements.dueCount(before: cutoff)).first?.decode(0) ?? 0
    }
}
