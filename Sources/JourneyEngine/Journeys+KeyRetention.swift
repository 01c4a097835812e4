import Foundation
import JourneyDomain
import Postgres

/// The start keys' part of the retention policy and of an erasure: the engine owns
/// `idempotency_keys`, so stored outcomes (live `webAppToken`s) and old keys leave through here.
extension Journeys {
    /// How many keys keep an outcome stored before `cutoff`.
    public func startOutcomesStored(before cutoff: Date) async throws -> Int {
        try await count(IdempotencyStatements.outcomesStored(before: cutoff))
    }

    /// Drops up to `limit` outcomes stored before `cutoff`, oldest first; the keys are left
    /// released, so a replay answers from the journey's state. How many it dropped.
    public func purgeStartOutcomes(before cutoff: Date, limit: Int) async throws -> Int {
        try await database.query(IdempotencyStatements.purgeOutcomes(before: cutoff, limit: limit)).affectedRows
    }

    /// Drops the stored outcomes of the keys that started `journeys` (an erasure); how many.
    public func purgeStartOutcomes(of journeys: [JourneyID]) async throws -> Int {
        guard !journeys.isEmpty else { return 0 }
        return try await database.query(IdempotencyStatements.purgeOutcomes(journeys: journeys.map(\.rawValue))).affectedRows
    }

    /// How many keys were answered or released before `cutoff`.
    public func startKeysSettled(before cutoff: Date) async throws -> Int {
        try await count(IdempotencyStatements.keysSettled(before: cutoff))
    }

    /// Deletes up to `limit` keys answered or released before `cutoff`, oldest first; how many.
    public func deleteStartKeys(before cutoff: Date, limit: Int) async throws -> Int {
        try await count(IdempotencyStatements.deleteKeys(before: cutoff, limit: limit))
    }

    private func count(_ query: PostgresQuery) async throws -> Int {
        try await database.query(query).first?.decode(0, as: Int.self) ?? 0
    }
}
