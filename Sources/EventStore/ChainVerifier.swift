import Cryptography
import Foundation
import Postgres

/// Walks every stream and recomputes each event's hash outside the database, reporting the
/// first broken link: altered content, a removed or reordered event, or a stream head that
/// does not match its last event.
public struct ChainVerifier: Sendable {
    /// The first place where the chain does not hold.
    public struct Break: Sendable, Equatable, CustomStringConvertible {
        public let stream: StreamName
        public let version: Int64
        public let position: Int64?
        public let reason: String
        public var description: String {
            "stream \(stream) version \(version)\(position.map { " (position \($0))" } ?? ""): \(reason)"
        }
    }

    public struct Report: Sendable, Equatable {
        public var streams = 0
        public var events = 0
        public var firstBreak: Break?
        public var isIntact: Bool { firstBreak == nil }
    }

    public let client: PostgresClient
    /// Rows fetched per page. Default 5000.
    public var pageSize = 5000

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Verifies every stream; `progress` gets the number of events checked so far.
    public func verify(progress: (@Sendable (Int) -> Void)? = nil) async throws -> Report {
        var report = Report()
        var cursor: (stream: String, version: Int64) = ("", 0)
        var chain = ChainState()
        while report.firstBreak == nil {
            let rows = try await page(after: cursor)
            for row in rows {
                let event = try ChainRow(row: row)
                if event.stream != chain.stream {
                    if let broken = chain.finish() { report.firstBreak = broken; break }
                    chain = ChainState(stream: event.stream, head: (event.headVersion, event.headHash))
                    report.streams += 1
                }
                if let broken = chain.check(event) { report.firstBreak = broken; break }
                report.events += 1
            }
            guard report.firstBreak == nil else { break }
            guard let last = rows.last else {
                report.firstBreak = chain.finish()
                break
            }
            cursor = (try last.decode(0), try last.decode(1))
            progress?(report.events)
        }
        if report.firstBreak == nil, let orphan = try await streamWithoutEvents() {
            report.firstBreak = Break(
                stream: orphan, version: 1, position: nil, reason: "stream head recorded but its events are missing")
        }
        return report
    }

    private func page(after cursor: (stream: String, version: Int64)) async throws -> [PostgresRow] {
        try await client.query(EventStoreStatements.chainPage(after: cursor, limit: pageSize)).rows
    }

    private func streamWithoutEvents() async throws -> StreamName? {
        try await client.query(EventStoreStatements.streamWithoutEvents).first.map { StreamName(try $0.decode(0)) }
    }
}

/// One event row as the verifier needs it.
struct ChainRow {
    let stream: String
    let version: Int64
    let position: Int64
    let canonical: [String?]
    let previousHash: Data
    let hash: Data
    let headVersion: Int64?
    let headHash: Data?

    init(row: PostgresRow) throws {
        stream = try row.decode(0)
        version = try row.decode(1)
        position = try row.decode(2)
        canonical = [
            stream, String(version), try row.decode(3), try row.decode(4), try row.decode(5),
            try row.decode(6), try row.decode(7), try row.decode(8), String(try row.decode(9, as: Int64.self)),
        ]
        previousHash = try row.decode(10)
        hash = try row.decode(11)
        headVersion = try row.decode(12)
        headHash = try row.decode(13)
    }

    /// sha256(previous hash || length-prefixed fields), as `event_hash` in schema/0001.
    var recomputedHash: Data { EventHash.hash(previous: previousHash, fields: canonical) }
}

/// Running state of one stream's chain.
struct ChainState {
    static let genesis = Data(repeating: 0, count: 32)
    var stream: String? = nil
    var head: (version: Int64?, hash: Data?) = (nil, nil)
    var expectedVersion: Int64 = 1
    var previousHash = ChainState.genesis

    init() {}
    init(stream: String, head: (Int64?, Data?)) {
        self.stream = stream
        self.head = head
    }

    mutating func check(_ event: ChainRow) -> ChainVerifier.Break? {
        func broken(_ reason: String) -> ChainVerifier.Break {
            ChainVerifier.Break(
                stream: StreamName(event.stream), version: expectedVersion, position: event.position, reason: reason)
        }
        if event.version != expectedVersion {
            return broken("version \(expectedVersion) is missing (next stored is \(event.version))")
        }
        if event.previousHash != previousHash {
            return broken("previous hash does not link to the event before it")
        }
        if event.recomputedHash != event.hash {
            return broken("content does not match its hash (altered)")
        }
        previousHash = event.hash
        expectedVersion += 1
        return nil
    }

    /// Checks that the stream's recorded head is its last event.
    func finish() -> ChainVerifier.Break? {
        guard let stream else { return nil }
        let last = expectedVersion - 1
        if head.version != last || head.hash != previousHash {
            return ChainVerifier.Break(
                stream: StreamName(stream), version: last + 1, position: nil,
                reason: "stream head is version \(head.version.map(String.init) ?? "none") but the log ends at \(last)")
        }
        return nil
    }
}
