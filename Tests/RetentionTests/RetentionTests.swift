import DataSubjects
import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Retention
import SDKLiteSimulator
import Synchronization
import Testing

/// The retention policy over real PostgreSQL, the emulator and the simulated device; the policy's
/// `now` is given by the test, so days pass without waiting.
@Suite(.serialized) struct RetentionTests {
    static let day = 86_400.0

    /// Starts a journey for `cpf` and, unless `finish` is false, completes it (approved).
    static func journey(_ cpf: String, stack: TestStack, key: String, finish: Bool = true) async throws -> String {
        let started = try await stack.send(
            "POST", "/v1/journeys", bearer: stack.writer, headers: ["Idempotency-Key": key],
            json: [
                "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": cpf, "name": "Pessoa \(key)"],
                "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
            ])
        #expect(started.status == 201, "\(started.text)")
        let id = try #require(started["journeyId"] as? String)
        guard finish else { return id }
        let clientToken = try #require(started["clientToken"] as? String)
        let webAppToken = try #require(started["webAppToken"] as? String)
        let device = await SimulatedDevice(emulatorURL: stack.emulatorURL).run(
            webAppToken: webAppToken, environment: .UAT,
            user: .approve)
        let processID = try #require(device.processId)
        let callback = try await stack.send(
            "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
            json: ["outcome": "success", "processId": processID])
        #expect(callback["status"] as? String == "completed", "\(callback.text)")
        return id
    }

    static func subject(of id: String, _ db: TestDatabase) async throws -> String {
        try #require(
            try await db.app.query("SELECT subject_reference FROM journey_state WHERE journey_id = \(id)").first?
                .decode(0, as: String.self))
    }

    static func completedAt(_ id: String, _ db: TestDatabase) async throws -> Date {
        try #require(
            try await db.app.query("SELECT completed_at FROM journey_state WHERE journey_id = \(id)").first?
                .decode(0, as: Date?.self))
    }

    /// Whether the journey's read-model state still holds a sealed webAppToken, process token or link.
    static func holdsTokens(_ id: String, _ db: TestDatabase) async throws -> Bool {
        let text = try #require(
            try await db.app.query("SELECT state::text FROM journey_state WHERE journey_id = \(id)").first?
                .decode(0, as: String.self))
        return text.contains("\"webAppToken\"") || text.contains("\"processToken\"") || text.contains("\"link\"")
    }

    static func storedAnswers(_ db: TestDatabase) async throws -> Int {
        try await db.app.query("SELECT count(*)::int FROM idempotency_keys WHERE outcome IS NOT NULL").first?
            .decode(0, as: Int.self) ?? 0
    }

    /// (Keys kept for a century: this suite's runs are a year on, and its replay checks a purged answer, not a deleted key.)
    static func retention(
        _ stack: TestStack,
        _ configuration: Retention.Configuration = .init(batchSize: 1, idempotencyKeyDays: 36_500)
    ) throws -> Retention {
        let journeys = Journeys(database: stack.database.app, dependencies: stack.dependencies.engine)
        return try Retention(
            configuration: configuration, subjects: DataSubjects(journeys: journeys),
            readModels: stack.database.projector)
    }

    @Test func policyErasesOldSubjectsPurgesAnswersAndDropsTokensOfEndedJourneys() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let db = stack.database
            let old = try await Self.journey("52998224725", stack: stack, key: "old")
            let recent = try await Self.journey("11144477735", stack: stack, key: "recent")
            let active = try await Self.journey("39053344705", stack: stack, key: "active", finish: false)
            _ = try await stack.projections.catchUp()
            let oldRef = try await Self.subject(of: old, db)
            let recentRef = try await Self.subject(of: recent, db)
            let activeRef = try await Self.subject(of: active, db)
            // 365 days after a moment between the two completions: only the first subject is due.
            let between = try await Self.completedAt(old, db)
                .addingTimeInterval(
                    try await Self.completedAt(recent, db).timeIntervalSince(try await Self.completedAt(old, db)) / 2)
            let later = between.addingTimeInterval(365 * Self.day)
            let retention = try Self.retention(stack)

            // Nothing is due today; a day later only the stored answers; a dry run changes nothing.
            let today = try await retention.plan(now: Date())
            #expect(today.total == 0, "\(today)")
            let tomorrow = try await retention.plan(now: Date().addingTimeInterval(25 * 3600))
            #expect(tomorrow.idempotencyAnswersToPurge == 3)
            #expect(tomorrow.subjectsToErase.isEmpty && tomorrow.journeysWithTokensToDrop == 0)
            let plan = try await retention.plan(now: later)
            #expect(plan.subjectsToErase == [oldRef])
            #expect(plan.idempotencyAnswersToPurge == 3)
            #expect(plan.journeysWithTokensToDrop == 2)
            #expect(try await Self.storedAnswers(db) == 3)
            #expect(try await Self.holdsTokens(old, db))
            #expect(try await stack.dependencies.engine.vault.keyStatus(subject: SubjectReference(oldRef)) == .live)

            // Apply: the old subject is erased with the policy as reason; the others are untouched.
            let counter = ProgressCounter()
            let outcome = try await retention.apply(now: later) { counter.record($0) }
            #expect(outcome.subjectsErased == [oldRef])
            #expect(outcome.journeysMarked == 1)
            #expect(outcome.subjectsSkipped == 0)
            #expect(outcome.idempotencyAnswersPurged == 3)
            #expect(outcome.journeysWithTokensDropped == 2)
            #expect(counter.last == plan.total)
            let erased = try await stack.send("GET", "/v1/journeys/\(old)/events", bearer: stack.reader)
            #expect(erased.text.contains("SubjectErased"))
            #expect(erased.text.contains("retention: 365 days after the last journey ended"))
            #expect(erased.text.contains("\"retention\""))
            let token = try await stack.send(
                "GET", "/v1/journeys/\(old)/human-token", bearer: stack.reader,
                headers: ["Disclosure-Purpose": "retention test"])
            #expect(token.code == "subject_erased")
            #expect(try await stack.dependencies.engine.vault.keyStatus(subject: SubjectReference(recentRef)) == .live)
            #expect(try await stack.dependencies.engine.vault.keyStatus(subject: SubjectReference(activeRef)) == .live)
            let kept = try await stack.send(
                "GET", "/v1/journeys/\(recent)/human-token", bearer: stack.reader,
                headers: ["Disclosure-Purpose": "retention test"])
            #expect(kept.status == 200, "\(kept.text)")
            #expect(
                !(try await stack.send("GET", "/v1/journeys/\(recent)/events", bearer: stack.reader)).text
                    .contains("SubjectErased"))

            // Answers purged; tokens gone from ended journeys only; the log is intact.
            #expect(try await Self.storedAnswers(db) == 0)
            #expect(try await !Self.holdsTokens(recent, db))
            #expect(try await Self.holdsTokens(active, db))
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)

            // Once more: nothing to do; the projection folding the SubjectErased event keeps the tokens dropped.
            _ = try await stack.projections.catchUp()
            let again = try await retention.apply(now: later)
            #expect(again.total == 0, "\(again)")
            #expect(try await retention.plan(now: later).total == 0)
            #expect(try await !Self.holdsTokens(old, db))
            let events = try await stack.send("GET", "/v1/journeys/\(old)/events", bearer: stack.reader)
            #expect(events.text.components(separatedBy: "SubjectErased").count == 2)

            // A replay of a purged key answers from the journey: no second journey.
            let replay = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer, headers: ["Idempotency-Key": "recent"],
                json: [
                    "subject": [
                        "documentType": "DUI_TYPE_BR_CPF", "documentNumber": "11144477735",
                        "name": "Pessoa recent",
                    ],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
                ])
            #expect(replay["journeyId"] as? String == recent, "\(replay.text)")
        }
    }

    @Test func scheduledServiceAppliesThePolicy() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let id = try await Self.journey("52998224725", stack: stack, key: "scheduled")
            _ = try await stack.projections.catchUp()
            let reference = SubjectReference(try await Self.subject(of: id, stack.database))
            let clock = TestClock(Date().addingTimeInterval(400 * Self.day))
            let service = RetentionService(
                retention: try Self.retention(stack), clock: clock.read,
                retryAfterFailure: .milliseconds(200))
            let vault = stack.dependencies.engine.vault
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await waitUntil("the scheduled pass erases the subject") {
                    try await vault.keyStatus(subject: reference) != .live
                }
                group.cancelAll()
            }
        }
    }

    @Test func environmentGivesThePolicyAndBadValuesNameTheVariable() throws {
        let defaults = try Retention.Configuration.fromEnvironment([:])
        #expect(defaults == Retention.Configuration())
        #expect(
            defaults.enabled && defaults.eraseAfterDays == 365 && defaults.idempotencyAnswerHours == 24 && defaults.tokenDays == 7
        )
        #expect(defaults.interval == .seconds(3600))
        let set = try Retention.Configuration.fromEnvironment([
            "JOURNEYS_RETENTION": "off", "JOURNEYS_RETENTION_ERASE_AFTER_DAYS": "730",
            "JOURNEYS_RETENTION_IDEMPOTENCY_HOURS": " 48 ", "JOURNEYS_RETENTION_TOKEN_DAYS": "3",
            "JOURNEYS_RETENTION_INTERVAL": "600",
        ])
        #expect(!set.enabled && set.eraseAfterDays == 730 && set.idempotencyAnswerHours == 48 && set.tokenDays == 3)
        #expect(set.interval == .seconds(600))
        #expect(set.erasureReason == "retention: 730 days after the last journey ended")
        for (name, value) in [
            ("JOURNEYS_RETENTION", "maybe"), ("JOURNEYS_RETENTION_ERASE_AFTER_DAYS", "0"),
            ("JOURNEYS_RETENTION_ERASE_AFTER_DAYS", "a year"), ("JOURNEYS_RETENTION_IDEMPOTENCY_HOURS", "-1"),
            ("JOURNEYS_RETENTION_IDEMPOTENCY_HOURS", "1.5"), ("JOURNEYS_RETENTION_TOKEN_DAYS", "99999999"),
            ("JOURNEYS_RETENTION_INTERVAL", "5"),
        ] {
            let error = #expect(throws: RetentionError.self) { try Retention.Configuration.fromEnvironment([name: value]) }
            #expect(error?.field == name)
            #expect(error?.message.contains(name) == true)
        }
        #expect(throws: RetentionError.self) { try Retention.Configuration(batchSize: 0).validate() }
    }
}

/// The last progress count a run reported.
final class ProgressCounter: Sendable {
    private let value = Mutex(0)
    func record(_ done: Int) { value.withLock { $0 = done } }
    var last: Int { value.withLock { $0 } }
}
