import Postgres

extension EventStore {
    /// Group commit settings for appends that stand alone (see ``GroupAppender``).
    public struct Grouping: Sendable {
        /// Off: every append is its own transaction, as inside a caller's transaction.
        public var isEnabled = true
        /// Most appends in one group. Default 64.
        public var maximumAppends = 64
        /// Most events in one group (a larger single append still goes, alone). Default 2,000.
        public var maximumEvents = 2_000
        /// Groups in flight at once, each on its own connection. Default 4.
        public var concurrentGroups = 4
        public init(isEnabled: Bool = true) { self.isEnabled = isEnabled }
        /// Every append on its own.
        public static let off = Grouping(isEnabled: false)
    }

    /// Refuses what the database would refuse before any round trip.
    static func validate(_ events: [NewEvent]) throws {
        guard !events.isEmpty else { throw EventStoreError(.invalidEvent, "no events to append") }
        if let blank = events.first(where: { $0.type.isEmpty }) {
            throw EventStoreError(.invalidEvent, "event \(blank.id) has an empty type")
        }
    }

    /// Appends every append of `appends` in one statement on `connection` (one transaction when
    /// none is open), each with its own outcome. Throws only when the group failed as a whole,
    /// and then nothing of it was written.
    static func appendGroup(_ appends: [GroupedAppend], on connection: PostgresConnection) throws -> [GroupedAppend.Outcome] {
        let rows = try connection.query(EventStoreStatements.appendGroup(appends))
        guard let row = rows.first else { throw EventStoreError(.invalidEvent, "group append returned nothing") }
        let codes = try parseNullableBigintArray(try row.decode(0, as: String.self))
        let versions = try parseNullableBigintArray(try row.decode(1, as: String.self))
        let positions = try parseNullableBigintArray(try row.decode(2, as: String.self))
        guard codes.count == appends.count, versions.count == appends.count else {
            throw EventStoreError(.invalidEvent, "group append returned \(codes.count) outcomes for \(appends.count) appends")
        }
        var first = 0
        return appends.enumerated().map { index, append in
            let count = append.events.count
            let slice = first + count <= positions.count ? Array(positions[first..<first + count]) : []
            first += count
            return append.outcome(code: codes[index] ?? -1, version: versions[index], positions: slice)
        }
    }
}

/// Parses `{1,NULL,3}`.
func parseNullableBigintArray(_ text: String) throws -> [Int64?] {
    let inner = text.dropFirst().dropLast()
    if inner.isEmpty { return [] }
    return try inner.split(separator: ",").map {
        if $0 == "NULL" { return nil }
        guard let value = Int64($0) else { throw EventStoreError(.invalidEvent, "unexpected array \(text)") }
        return value
    }
}
