import Audit
import Cryptography
import Foundation
import HTTPServer
import JourneyDomain
import Postgres
import Projections

/// `GET /v1/journeys?subject=&clientReference=&status=&environment=&createdFrom=&createdTo=&limit=&cursor=`:
/// journeys newest first from the `journey_state` read model, one keyset page at a time. Filters
/// combine (AND); `state` is the older name of `status`; the creation range is
/// `createdFrom <= startedAt < createdTo` (RFC 3339).
///
/// The read model trails the log by the projection's lag (`journeys projections status`); a journey
/// started a moment ago may be missing from the first page for that long.
struct JourneyListing: Sendable {
    /// Validated query parameters.
    struct Query: Sendable, Equatable {
        var subject: String?
        var clientReference: String?
        var status: JourneyStatus?
        var environment: Environment?
        var createdFrom: Date?
        var createdTo: Date?
        var limit: Int = JourneyListing.defaultLimit
        var after: Cursor?
    }

    /// Position after the last row of a page: its start time in microseconds and its id.
    struct Cursor: Sendable, Equatable {
        var startedMicros: Int64
        var journeyID: String

        var encoded: String { Base64URL.encode(Data("\(startedMicros):\(journeyID)".utf8)) }

        init(startedMicros: Int64, journeyID: String) {
            self.startedMicros = startedMicros
            self.journeyID = journeyID
        }

        /// Start times a cursor may carry, in microseconds since 1970: up to 9999-12-31, so a crafted
        /// one is refused here (400) instead of failing in PostgreSQL's timestamp range (500).
        static let startedRange: ClosedRange<Int64> = 0...253_402_300_799_999_999

        init?(encoded: String) {
            guard encoded.count <= 200, let data = Base64URL.decode(encoded),
                let text = String(data: data, encoding: .utf8)
            else { return nil }
            let parts = text.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let micros = Int64(parts[0]), Self.startedRange.contains(micros),
                UUID(uuidString: String(parts[1])) != nil
            else { return nil }
            self.init(startedMicros: micros, journeyID: String(parts[1]))
        }
    }

    struct Item: Encodable, Sendable {
        var journeyId: String
        var status: String
        var attempt: Int
        var environment: String?
        var flow: String?
        var purpose: String?
        var clientReference: String?
        var subjectReference: String?
        var startedAt: Date?
        var completedAt: Date?
        var abandonedAt: Date?
        var outcome: String?
        var lastErrorCode: Int?
    }

    struct Page: Encodable, Sendable {
        var items: [Item]
        /// Pass as `cursor` for the next page; absent on the last page.
        var nextCursor: String?
    }

    static let defaultLimit = 50
    static let maximumLimit = 200

    /// The journey-state read model's database (a standby when one is configured).
    let reports: ReportsDatabase

    /// Reads the query parameters; a bad one is a 400 `invalid_query` naming it.
    static func query(_ request: HTTPRequest) throws -> Query {
        var query = Query()
        if let subject = request.query("subject") {
            guard (1...128).contains(subject.count),
                subject.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
            else { throw invalid("subject", "subject must be a subject reference (1 to 128 letters, digits, - or _).") }
            query.subject = subject
        }
        if let reference = request.query("clientReference") {
            guard (1...FieldRules.clientReferenceMaximumLength).contains(reference.count),
                !reference.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw invalid(
                    "clientReference",
                    "clientReference must be 1 to \(FieldRules.clientReferenceMaximumLength) "
                        + "characters, as given when the journey started.")
            }
            query.clientReference = reference
        }
        let status = request.query("status"), state = request.query("state")
        if let status, let state, status != state {
            throw invalid("status", "status and state (its older name) disagree; give one of them.")
        }
        if let value = status ?? state {
            let name = status == nil ? "state" : "status"
            guard let status = JourneyStatus(rawValue: value), status != .notStarted else {
                let known = JourneyStatus.allCases.filter { $0 != .notStarted }.map(\.rawValue).joined(separator: ", ")
                throw invalid(name, "\(name) must be one of: \(known).")
            }
            query.status = status
        }
        for name in ["createdFrom", "createdTo"] {
            guard let text = request.query(name) else { continue }
            guard let instant = try? AsOf.parse(text, field: name) else {
                throw invalid(name, "\(name) must be \(AsOf.expected).")
            }
            if name == "createdFrom" { query.createdFrom = instant } else { query.createdTo = instant }
        }
        if let from = query.createdFrom, let to = query.createdTo, from >= to {
            throw invalid("createdTo", "createdTo must be after createdFrom.")
        }
        if let environment = request.query("environment") {
            guard let value = Environment(rawValue: environment) else {
                throw invalid("environment", "environment must be UAT or PROD.")
            }
            query.environment = value
        }
        if let limit = request.query("limit") {
            guard let value = Int(limit), (1...maximumLimit).contains(value) else {
                throw invalid("limit", "limit must be an integer from 1 to \(maximumLimit).")
            }
            query.limit = value
        }
        if let cursor = request.query("cursor") {
            guard let value = Cursor(encoded: cursor) else {
                throw invalid("cursor", "cursor must be a nextCursor value returned by this endpoint.")
            }
            query.after = value
        }
        return query
    }

    /// One page of `tenant`'s journeys (the caller's: confined in SQL).
    func page(_ query: Query, tenant: String) async throws -> Page {
        let rows = try await reports.read { database in
            try await JourneyStateQueries.page(
                tenant: tenant, subject: query.subject, clientReference: query.clientReference,
                status: query.status?.rawValue, environment: query.environment?.rawValue,
                createdFrom: query.createdFrom, createdTo: query.createdTo,
                after: query.after.map { ($0.startedMicros, $0.journeyID) }, limit: query.limit + 1, on: database)
        }
        var items: [Item] = []
        var last: Cursor?
        for row in rows.prefix(query.limit) {
            items.append(
                Item(
                    journeyId: row.journeyID, status: row.status, attempt: row.attempt, environment: row.environment,
                    flow: row.flow, purpose: row.purpose, clientReference: row.clientReference,
                    subjectReference: row.subjectReference, startedAt: row.startedAt, completedAt: row.completedAt,
                    abandonedAt: row.abandonedAt, outcome: row.outcome, lastErrorCode: row.lastErrorCode))
            last = Cursor(startedMicros: row.startedMicros, journeyID: row.journeyID)
        }
        return Page(items: items, nextCursor: rows.count > query.limit ? last?.encoded : nil)
    }

    /// 400 `invalid_query` naming the parameter (as `parameter` and, as every bad input, `field`).
    private static func invalid(_ parameter: String, _ detail: String) -> Problem {
        Problem(status: .badRequest, code: "invalid_query", detail: detail, extra: ["parameter": parameter, "field": parameter])
    }
}
