import DataSubjects
import Foundation
import JourneyDomain
import JourneyEngine
import OutboundWebhooks
import Postgres
import Projections

/// A deployment's retention policy over the database: erases subjects some days after their last
/// journey ended (through ``DataSubjects/DataSubjects/erase(_:requestedBy:reason:)``, so each
/// erasure is a `SubjectErased` event with the policy as reason), purges stored idempotency
/// answers after some hours, and drops the sealed tokens and links of ended journeys from the
/// read model after some days.
///
/// ``plan(now:)`` changes nothing; ``apply(now:progress:)`` works in batches of
/// `configuration.batchSize`, each committed on its own, so a run that stops is finished by the
/// next. Both are idempotent. The log is never changed: a token or link sealed in a
/// `ProcessCreated` event stays there, unreadable once its subject is erased.
public struct Retention: Sendable {
    public let configuration: Configuration
    public let subjects: DataSubjects
    /// The projector role's client (`journeys_projector`): only it may change `journey_state`.
    let readModels: PostgresClient

    /// Throws `invalid_configuration` naming the first unusable setting.
    public init(configuration: Configuration, subjects: DataSubjects, readModels: PostgresClient) throws {
        try configuration.validate()
        self.configuration = configuration
        self.subjects = subjects
        self.readModels = readModels
    }

    /// The actor of every erasure this policy makes.
    public static let actor = "retention"

    var database: PostgresClient { subjects.journeys.database }

    /// What ``apply(now:progress:)`` would do at `now`; changes nothing.
    public func plan(now: Date) async throws -> RetentionPlan {
        var references: [String] = []
        var after = ""
        while true {
            let batch = try await subjectsDue(now: now, after: after)
            references += batch
            guard batch.count == configuration.batchSize, let last = batch.last else { break }
            after = last
        }
        let answers = try await journeys.startOutcomesStored(before: configuration.idempotencyCutoff(now: now))
        let holdingTokens = try await SealedTokenRetention.count(endedBefore: configuration.tokenCutoff(now: now), on: database)
        var plan = RetentionPlan(
            now: now, subjectsToErase: references, erasureCutoff: configuration.erasureCutoff(now: now),
            idempotencyAnswersToPurge: answers, idempotencyCutoff: configuration.idempotencyCutoff(now: now),
            journeysWithTokensToDrop: holdingTokens, tokenCutoff: configuration.tokenCutoff(now: now))
        plan.idempotencyKeyCutoff = configuration.idempotencyKeyCutoff(now: now)
        plan.idempotencyKeysToDelete = try await journeys.startKeysSettled(before: configuration.idempotencyKeyCutoff(now: now))
        plan.webhookDeliveryCutoff = configuration.webhookDeliveryCutoff(now: now)
        plan.webhookDeliveriesToDelete = try await WebhookDeliveryRetention.count(
            finishedBefore: configuration.webhookDeliveryCutoff(now: now), on: database)
        return plan
    }

    /// Applies the policy at `now`; `progress` gets the number of subjects, answers and journeys
    /// handled so far after each one or each batch.
    public func apply(now: Date, progress: @Sendable (Int) -> Void = { _ in }) async throws -> RetentionOutcome {
        var outcome = RetentionOutcome(now: now, erasureReason: configuration.erasureReason)
        var done = 0
        try await erase(now: now, into: &outcome) {
            done += $0
            progress(done)
        }
        let answerCutoff = configuration.idempotencyCutoff(now: now)
        while true {
            let purged = try await journeys.purgeStartOutcomes(before: answerCutoff, limit: configuration.batchSize)
            outcome.idempotencyAnswersPurged += purged
            done += purged
            progress(done)
            if purged < configuration.batchSize { break }
        }
        let tokenCutoff = configuration.tokenCutoff(now: now)
        // Bounded: the projector may write a row back while this runs; the next run drops it.
        let rounds = try await SealedTokenRetention.count(endedBefore: tokenCutoff, on: database) / configuration.batchSize + 2
        for _ in 0..<rounds {
            let dropped = try await SealedTokenRetention.drop(
                endedBefore: tokenCutoff, limit: configuration.batchSize, on: readModels)
            outcome.journeysWithTokensDropped += dropped
            done += dropped
            progress(done)
            if dropped < configuration.batchSize { break }
        }
        outcome.idempotencyKeysDeleted = try await purge { [journeys, configuration] in
            try await journeys.deleteStartKeys(
                before: configuration.idempotencyKeyCutoff(now: now), limit: configuration.batchSize)
        } each: {
            done += $0; progress(done)
        }
        outcome.webhookDeliveriesDeleted = try await purge { [database, configuration] in
            try await WebhookDeliveryRetention.delete(
                finishedBefore: configuration.webhookDeliveryCutoff(now: now), limit: configuration.batchSize, on: database)
        } each: {
            done += $0; progress(done)
        }
        return outcome
    }

    /// The engine, owner of the start keys.
    private var journeys: Journeys { subjects.journeys }

    /// Calls a purge function batch after batch until one deletes fewer than a batch; the rows deleted.
    private func purge(_ batch: () async throws -> Int, each: (Int) -> Void) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await batch()
            total += deleted
            each(deleted)
            if deleted < configuration.batchSize { return total }
        }
    }

    /// Erases each subject due at `now`, after checking in the log that every one of its journeys
    /// ended before the cutoff (the read model may lag behind a new journey).
    /// `each` gets the number of subjects and answers each subject accounted for.
    private func erase(now: Date, into outcome: inout RetentionOutcome, each: (Int) -> Void) async throws {
        let cutoff = configuration.erasureCutoff(now: now)
        var after = ""
        while true {
            let batch = try await subjectsDue(now: now, after: after)
            for reference in batch {
                let subject = SubjectReference(reference)
                if try await endedBefore(cutoff, subject: subject) {
                    let report = try await subjects.erase(subject, requestedBy: Self.actor, reason: configuration.erasureReason)
                    if !report.alreadyErased { outcome.subjectsErased.append(reference) }
                    outcome.journeysMarked += report.journeysMarked
                    outcome.idempotencyAnswersPurged += report.idempotencyAnswersPurged
                    each(1 + report.idempotencyAnswersPurged)
                } else {
                    outcome.subjectsSkipped += 1
                    each(1)
                }
            }
            guard batch.count == configuration.batchSize, let last = batch.last else { return }
            after = last
        }
    }

    /// True when the log holds journeys of `subject` and every one ended before `cutoff`.
    private func endedBefore(_ cutoff: Date, subject: SubjectReference) async throws -> Bool {
        let ids = try await subjects.journeyIDs(of: subject)
        guard !ids.isEmpty else { return false }
        for id in ids {
            let state = try await subjects.journeys.state(of: id)
            guard state.status.isTerminal, let ended = state.completedAt ?? state.abandonedAt, ended < cutoff else {
                return false
            }
        }
        return true
    }

    private func subjectsDue(now: Date, after: String) async throws -> [String] {
        try await database.query(
            RetentionStatements.subjectsDue(
                endedBefore: configuration.erasureCutoff(now: now), after: after,
                limit: configuration.batchSize)
        )
        .map { try $0.decode(0, as: String.self) }
    }
}
