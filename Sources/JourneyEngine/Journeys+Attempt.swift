import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import Observability
import Postgres
import Privacy

/// Running an attempt: Create Process outside any transaction, then its outcome (process created
/// and token issued, or the failed creation) recorded in one transaction.
///
/// A Create Process without an answer (`timeout`, `transport`) records nothing: the intent stays
/// open and a worker reconciles it by client reference (``JourneyState/nextDue``
/// `reconcileProcessCreation`), so one attempt never gets two processes.
extension Journeys {
    /// Field names Unico's secrets are sealed under.
    public enum SealedName {
        public static let webAppToken = "webAppToken"
        public static let processToken = "processToken"
        public static let link = "link"
    }

    /// Runs the attempt and records its outcome; `answer` turns the outcome into the caller's
    /// answer inside the recording transaction. `known`, the journey's state and version as the
    /// caller last wrote them, spares the recording transaction's first try a load. The
    /// attempt's webhook lookup row and the answer's statements leave with the transaction's
    /// `COMMIT` (one round trip).
    func runAttempt<Answer: Sendable>(
        _ target: AttemptTarget, metadata: EventMetadata, known: (state: JourneyState, version: Int64)? = nil,
        answer: @escaping @Sendable (AttemptOutcome) throws -> PipelinedAnswer<Answer>
    ) async throws -> Answer {
        let outcome: Result<CreatedProcess, HumanTokenAPIError>
        let client = dependencies.unicoClient(target.environment, tenant: target.tenant)
        let missingClient = client == nil
        let sentAt = dependencies.clock()
        if let unico = client {
            outcome = await StageTimer.measure(StartStage.unicoCreateProcess) { await Self.createProcess(target, with: unico) }
        } else {
            outcome = .failure(HumanTokenAPIError(.configuration, "no Unico client for the environment"))
        }
        let vault = dependencies.vault
        return try await StageTimer.measure(StartStage.recordTransaction) {
            try await commands.transaction { context in
                let result: Result<IssuedToken, EngineError>
                var statements: [PostgresQuery] = []
                let known = context.attempt == 1 ? known : nil
                switch outcome {
                case .success(let process):
                    let (issued, lookup) = try Self.record(
                        process, target: target, metadata: metadata, vault: vault,
                        known: known, sentAt: sentAt, in: context)
                    result = .success(issued)
                    statements.append(lookup)
                case .failure(let error) where Self.leavesIntentOpen(error) && !missingClient:
                    result = .failure(Self.creationFailed(error))
                case .failure(let error):
                    try context.execute(
                        [.recordProcessCreationFailed(attempt: target.attempt, failure: Self.failure(error))],
                        journey: target.journeyID, metadata: metadata, known: known)
                    result = .failure(
                        missingClient
                            ? EngineError(
                                .unicoNotConfigured, "no Unico client for the environment", environment: target.environment)
                            : Self.creationFailed(error))
                }
                let outcome = AttemptOutcome(
                    journeyID: target.journeyID, environment: target.environment, result: result,
                    decidedAt: context.now)
                let answered = try answer(outcome)
                try Self.enqueue(statements + answered.statements, on: context.connection)
                return answered.value
            }
        }
    }

    /// Sends `statements` with the transaction's `COMMIT` (one round trip for both); the first
    /// failure aborts the transaction.
    static func enqueue(_ statements: [PostgresQuery], on connection: PostgresConnection) throws {
        for statement in statements { try connection.enqueue(statement) }
    }

    /// Runs the attempt and records its outcome.
    public func runAttempt(_ target: AttemptTarget, metadata: EventMetadata) async throws -> AttemptOutcome {
        try await runAttempt(target, metadata: metadata) { PipelinedAnswer($0) }
    }

    /// True when Create Process got no answer (`timeout`, `transport`): the process may exist, so
    /// the intent is left open for reconciliation instead of recording a failure.
    public static func leavesIntentOpen(_ error: HumanTokenAPIError) -> Bool {
        error.code == .timeout || error.code == .transport
    }

    /// The failure recorded for a Create Process that answered with an error.
    ///
    /// A failure of our own credentials or settings (`unauthorized`, `configuration`) is
    /// retryable: it is the deployment's to fix, never a reason to end the person's journey; the
    /// attempt waits under the retry policy (the client logs it and counts it in
    /// `unico_authentication_failures_total`). A refused field (400) is not.
    public static func failure(_ error: HumanTokenAPIError) -> ProcessCreationFailure {
        ProcessCreationFailure(
            httpStatus: error.status, errorCode: error.unicoCode.flatMap { Int($0) },
            message: "Create Process failed: \(error.code.rawValue)",
            retryable: error.code == .unauthorized || error.code == .configuration ? true : nil,
            retryAfter: error.retryAfter.map(TimeInterval.init))
    }

    static func creationFailed(_ error: HumanTokenAPIError) -> EngineError {
        EngineError(.processCreationFailed, "Create Process failed: \(error.code.rawValue)", unico: error)
    }

    /// Calls Create Process for `target` with its deterministic client reference; never throws.
    public static func createProcess(
        _ target: AttemptTarget, with unico: HumanTokenAPIClient,
        priority: RequestPriority = .live
    ) async -> Result<CreatedProcess, HumanTokenAPIError> {
        let subject = target.subject
        let person = ProcessPerson(
            duiType: .init(rawValue: subject.documentType.rawValue), duiValue: subject.documentNumber,
            friendlyName: subject.friendlyName, phone: subject.phone, email: subject.email,
            notifications: subject.notificationChannels.map { ProcessNotification(.init(rawValue: $0.rawValue)) })
        let request = CreateProcessRequest(
            flow: target.flow.rawValue, purpose: .init(rawValue: target.purpose.rawValue), person: person,
            clientReference: target.unicoClientReference, expiresIn: target.processLifetime)
        do {
            return .success(try await unico.createProcess(request, priority: priority))
        } catch let error as HumanTokenAPIError {
            return .failure(error)
        } catch {
            return .failure(HumanTokenAPIError(.transport, "Create Process did not complete"))
        }
    }

    /// Records the created process (its secrets sealed) and the token's issuance in one append;
    /// returns the token and the webhook lookup row's statement, which the caller runs in the
    /// same transaction.
    static func record(
        _ process: CreatedProcess, target: AttemptTarget, metadata: EventMetadata,
        vault: SubjectVault, known: (state: JourneyState, version: Int64)? = nil, sentAt: Date? = nil,
        in context: CommandContext
    ) throws -> (IssuedToken, lookup: PostgresQuery) {
        var creation = try sealedCreation(process, target: target, tokenExpiresAt: nil, vault: vault, in: context)
        creation.sentAt = sentAt
        let issued = try context.execute(
            [.recordProcessCreated(creation), .issueToken], journey: target.journeyID,
            metadata: metadata, known: known)
        let expiresAt =
            issued.state.currentAttempt.flatMap(issued.state.webAppTokenExpiry(of:))
            ?? context.now.addingTimeInterval(JourneyTiming.webAppTokenLifetime)
        return (
            IssuedToken(attempt: target.attempt, webAppToken: process.webAppToken, expiresAt: expiresAt),
            lookupRow(process, target: target)
        )
    }

    /// Records the created process (its secrets sealed) and its webhook lookup row, without
    /// issuing the token (workers: the app asks for it later). `tokenExpiresAt` nil means five
    /// minutes from the decision time.
    @discardableResult
    static func recordCreated(
        _ process: CreatedProcess, target: AttemptTarget, metadata: EventMetadata,
        tokenExpiresAt: Date? = nil, sentAt: Date? = nil, vault: SubjectVault,
        in context: CommandContext
    ) throws -> JourneyState {
        var creation = try sealedCreation(process, target: target, tokenExpiresAt: tokenExpiresAt, vault: vault, in: context)
        creation.sentAt = sentAt
        let created = try context.execute(.recordProcessCreated(creation), journey: target.journeyID, metadata: metadata)
        try recordLookup(process, target: target, in: context)
        return created.state
    }

    /// The created process with its secrets sealed (one lookup of the subject's key).
    static func sealedCreation(
        _ process: CreatedProcess, target: AttemptTarget, tokenExpiresAt: Date?,
        vault: SubjectVault, in context: CommandContext
    ) throws -> ProcessCreation {
        let sealed = try context.measure(StartStage.seal) {
            try vault.seal(
                [
                    (process.webAppToken, SealedName.webAppToken), (process.token, SealedName.processToken),
                    (process.link, SealedName.link),
                ], subject: target.reference, on: context.connection)
        }
        return ProcessCreation(
            attempt: target.attempt, processID: ProcessID(process.id), webAppToken: sealed[0],
            processToken: sealed[1], link: sealed[2], tokenExpiresAt: tokenExpiresAt)
    }

    /// The webhook's lookup row (schema/0005), in the transaction of the ProcessCreated event.
    static func recordLookup(_ process: CreatedProcess, target: AttemptTarget, in context: CommandContext) throws {
        try context.connection.query(lookupRow(process, target: target))
    }

    /// The statement of the webhook's lookup row.
    static func lookupRow(_ process: CreatedProcess, target: AttemptTarget) -> PostgresQuery {
        EngineStatements.insertProcessJourney(processID: process.id, journeyID: target.journeyID, attempt: target.attempt)
    }
}
